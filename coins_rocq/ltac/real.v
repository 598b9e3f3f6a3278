(* The Ltac of coins_rocq.ladder_real.REAL_LTAC, sent with the prelude sentence by sentence. *)

Definition coins_z_split (z a p b : Z) : a = (p - 1)%Z -> b = (p + 1)%Z -> (IZR z <= IZR a)%R \/ z = p \/ (IZR b <= IZR z)%R := ltac:(intros -> ->; destruct (Z.lt_trichotomy z p) as [H|[H|H]]; [left; apply IZR_le; lia | right; left; exact H | right; right; apply IZR_le; lia]).

Fixpoint coins_zinsert (x : Z) (l : list Z) : list Z :=
  match l with nil => x :: nil | y :: t => if Z.leb x y then x :: l else y :: coins_zinsert x t end.

Ltac coins_r_close := try split_Rabs; first [ lra | lia | exfalso; lra ].

Ltac coins_r_split z l :=
  lazymatch l with
  | nil => idtac
  | ?p :: ?t =>
      let a := eval vm_compute in (p - 1)%Z in let b := eval vm_compute in (p + 1)%Z in
      let Hz := fresh "Hz" in
      destruct (coins_z_split z a p b eq_refl eq_refl) as [Hz|[Hz|Hz]];
      [ idtac | subst z | coins_r_split z t ]
  end.

Ltac coins_r_refute Hp :=
  lazymatch type of Hp with
  | ?A -> _ =>
      let HA := fresh "HA" in
      assert (HA : A) by (repeat split; first [ discriminate | congruence | coins_r_close ]);
      specialize (Hp HA); coins_r_refute Hp
  | _ => clear - Hp; revert Hp; coins_r_close
  end.

Ltac coins_r_each Hf l :=
  lazymatch l with
  | ?p :: ?t => first [ let Hp := fresh "Hp" in pose proof (Hf p) as Hp; solve [coins_r_refute Hp]
                      | coins_r_each Hf t ]
  end.

Ltac coins_r_pivot_of G add :=
  match G with
  | context [Rdiv (IZR ?a) (IZR ?b)] =>
      coins_numeral a; coins_numeral b; let f := eval vm_compute in (Z.div a b) in add f
  | context [IZR ?a] =>
      coins_numeral a;
      lazymatch G with
      | context [Rdiv (IZR a) _] => fail | context [Rdiv _ (IZR a)] => fail | _ => add a
      end
  end.

Ltac coins_r_with_pivots tac :=
  let acc := fresh "acc" in
  pose (acc := @nil Z);
  let add f := let l := eval cbv delta [acc] in acc in
               lazymatch l with context [f] => fail | _ => idtac end;
               let l' := eval vm_compute in (fold_right coins_zinsert nil (nodup Z.eq_dec ((f - 1) :: f :: (f + 1) :: l)))%Z in
               clear acc; pose (acc := l') in
  repeat (idtac; match goal with
                 | |- ?G => coins_r_pivot_of G add
                 | _ : ?G |- _ => coins_r_pivot_of G add
                 end);
  let l := eval cbv delta [acc] in acc in clear acc; tac l.

Ltac coins_r_open_sig :=
  match goal with
  | |- context [?t] =>
      let T := type of t in
      lazymatch T with Z => idtac | nat => idtac end;
      let u := eval red in t in
      lazymatch u with @proj1_sig _ _ ?e =>
        let z := fresh "z" in let Hz := fresh "Hz" in
        change t with (proj1_sig e); destruct e as [z Hz]; cbn [proj1_sig] in *
      end
  end.

Ltac coins_r_premises :=
  repeat match goal with
         | H : _ /\ _ |- _ => destruct H
         | H : ?A -> _ |- _ =>
             lazymatch type of A with Prop => idtac end;
             let HA := fresh "HA" in assert (HA : A) by coins_r_close; specialize (H HA)
         end.

Ltac coins_r_split_vars l :=
  try match goal with
      | |- context [IZR ?z] => is_var z; coins_r_split z l
      | _ : context [IZR ?z] |- _ => is_var z; coins_r_split z l
      end.

Ltac coins_real_ints :=
  repeat coins_r_open_sig;
  first [ lazymatch goal with |- context [forall z : Z, @?P z] => idtac end
        | lazymatch goal with _ : context [IZR ?z] |- _ => is_var z end ];
  lazymatch goal with
  | |- ~ _ =>
      coins_r_with_pivots ltac:(fun l =>
        intro; coins_r_premises;
        first [ match goal with Hf : forall z : Z, _ |- False => coins_r_each Hf l end
              | coins_r_split_vars l; coins_r_close ])
  | |- _ =>
      coins_r_with_pivots ltac:(fun l =>
        repeat split; intros; repeat match goal with H : _ /\ _ |- _ => destruct H end;
        coins_r_split_vars l;
        first [ congruence | coins_r_close ])
  end.
