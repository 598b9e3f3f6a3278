(* The Ltac of coins_rocq.ladder_real.LRA_LTAC, sent with the prelude sentence by sentence where the
   signature uses R, before the other files (coins_leaf calls coins_lra). *)

Ltac coins_real T := lazymatch T with R => idtac end.

(* A square root is out of lra's reach: each sqrt t of a closed term t built from integer numerals by
   the field operations is first bounded by two rationals (coins_sqrt_bounds), which lra reads
   with sqrt t as an unknown. t's value p / q is computed over Z (coins_frac: a numerator and a
   positive denominator), its root's floor and ceiling at the scale q * 10^9 by Z.sqrt: the bounds
   are 1 / (q * 10^9) apart, equal for a rational square (sqrt (IZR 36) is 6), and sqrt t is 0
   for t <= 0. The bounds are proved by lra from coins_sqrt_between; nothing is taken on trust. *)
Definition coins_sqrt_between : forall t lo hi : R,
    (0 <= lo)%R -> (lo * lo <= t)%R -> (t <= hi * hi)%R -> (0 <= hi)%R -> (lo <= sqrt t <= hi)%R :=
  ltac:(intros t lo hi Hlo Hl Hh Hhi; split;
        [ rewrite <- (sqrt_square lo Hlo); apply sqrt_le_1_alt; exact Hl
        | rewrite <- (sqrt_square hi Hhi); apply sqrt_le_1_alt; exact Hh ]).

Definition coins_sqrt_nonpos : forall t : R, (t <= 0)%R -> (0 <= sqrt t <= 0)%R :=
  ltac:(intros t Ht; rewrite (sqrt_neg_0 t Ht); lra).

Definition coins_fadd (x y : Z * Z) : Z * Z := (fst x * snd y + fst y * snd x, snd x * snd y)%Z.
Definition coins_fmul (x y : Z * Z) : Z * Z := (fst x * fst y, snd x * snd y)%Z.
Definition coins_fopp (x : Z * Z) : Z * Z := (- fst x, snd x)%Z.
Definition coins_finv (x : Z * Z) : Z * Z := (Z.sgn (fst x) * snd x, Z.abs (fst x))%Z.
Definition coins_sqrt_scale : Z := 1000000000.
Definition coins_sqrt_scaled (x : Z * Z) : Z := (fst x * snd x * coins_sqrt_scale * coins_sqrt_scale)%Z.
Definition coins_sqrt_floor (x : Z * Z) : Z := Z.sqrt (coins_sqrt_scaled x).
Definition coins_sqrt_ceil (x : Z * Z) : Z :=
  let f := coins_sqrt_floor x in if Z.eqb (f * f) (coins_sqrt_scaled x) then f else (f + 1)%Z.
Definition coins_sqrt_unit (x : Z * Z) : Z := (snd x * coins_sqrt_scale)%Z.

(* The value of a closed real term of integer numerals and field operations, as (p, q), q > 0 once
   checked (a zero denominator fails). *)
Ltac coins_frac t :=
  lazymatch t with
  | IZR ?z =>
      let z' := eval vm_compute in z in
      lazymatch z' with Z0 => constr:((0, 1)%Z) | Zpos _ => constr:((z', 1%Z)) | Zneg _ => constr:((z', 1%Z)) end
  | R0 => constr:((0, 1)%Z)
  | R1 => constr:((1, 1)%Z)
  | Rplus ?a ?b => let x := coins_frac a in let y := coins_frac b in constr:(coins_fadd x y)
  | Rminus ?a ?b => let x := coins_frac a in let y := coins_frac b in constr:(coins_fadd x (coins_fopp y))
  | Rmult ?a ?b => let x := coins_frac a in let y := coins_frac b in constr:(coins_fmul x y)
  | Rdiv ?a ?b => let x := coins_frac a in let y := coins_frac b in constr:(coins_fmul x (coins_finv y))
  | Ropp ?a => let x := coins_frac a in constr:(coins_fopp x)
  | Rinv ?a => let x := coins_frac a in constr:(coins_finv x)
  end.

(* The integer evar e of an equation c = t over R, c closed and t affine in IZR e (the
   rounding witness of ret = IZR ?z / 100): t is computed at e = 0 and e = 1, and e is unified
   with the solution when it is an integer. *)
Ltac coins_pin_real_in c t :=
  assert_fails (has_evar c); has_evar t;
  match t with
  | context C [IZR ?e] =>
      is_evar e;
      let t0 := context C [IZR 0%Z] in let t1 := context C [IZR 1%Z] in
      assert_fails (has_evar t0);
      let fc := coins_frac c in let f0 := coins_frac t0 in let f1 := coins_frac t1 in
      let x := eval vm_compute in
        (coins_fmul (coins_fadd fc (coins_fopp f0)) (coins_finv (coins_fadd f1 (coins_fopp f0)))) in
      let whole := eval vm_compute in (Z.ltb 0 (snd x) && Z.eqb (Z.modulo (fst x) (snd x)) 0)%bool in
      lazymatch whole with true => let z := eval vm_compute in (Z.div (fst x) (snd x)) in unify e z end
  end.

Ltac coins_pin_real :=
  match goal with
  | |- context [@eq R ?c ?t] => coins_pin_real_in c t
  | |- context [@eq R ?t ?c] => coins_pin_real_in c t
  end.

Ltac coins_sqrt_bound t :=
  let x := coins_frac t in
  let x := eval vm_compute in x in
  let q := eval vm_compute in (snd x) in
  lazymatch q with Zpos _ => idtac end;
  let H := fresh "Hsqrt" in
  let nonneg := eval vm_compute in (Z.leb 0 (fst x)) in
  lazymatch nonneg with
  | false => assert (H := coins_sqrt_nonpos t ltac:(lra))
  | true =>
      let f := eval vm_compute in (coins_sqrt_floor x) in
      let u := eval vm_compute in (coins_sqrt_unit x) in
      let g := eval vm_compute in (coins_sqrt_ceil x) in
      assert (H := coins_sqrt_between t (IZR f / IZR u) (IZR g / IZR u) ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra))
  end.

Ltac coins_sqrt_unbounded t :=
  assert_fails (idtac; match goal with _ : (_ <= sqrt t <= _)%R |- _ => idtac end).

Ltac coins_sqrt_bounds :=
  repeat match goal with
         | |- context [sqrt ?t] => coins_sqrt_unbounded t; coins_sqrt_bound t
         | _ : context [sqrt ?t] |- _ => coins_sqrt_unbounded t; coins_sqrt_bound t
         end.

(* Linear real arithmetic, square roots of closed terms bounded first, with absolute values split by
   cases (split_Rabs: each Rabs t, in the goal or a hypothesis, becomes t or - t with the sign
   condition) when lra alone fails. *)
Ltac coins_lra :=
  coins_sqrt_bounds;
  first [ lra | lazymatch goal with |- context [Rabs _] => idtac | _ : context [Rabs _] |- _ => idtac end; split_Rabs; lra ].
