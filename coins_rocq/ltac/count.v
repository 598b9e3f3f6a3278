(* The Ltac of coins_rocq.ladder_count.COUNT_LTAC, sent with the prelude sentence by sentence. *)

Ltac coins_count_premises G :=
  lazymatch G with
  | In _ nil => idtac
  | ?A -> ?R => assert_succeeds (assert A by (coins_clear_all; coins_crush)); coins_count_premises R
  end.

Ltac coins_count_bound C :=
  lazymatch C with
  | forall i : nat, (i + ?e <= ?n)%nat -> _ => eval vm_compute in (S n - e)
  | forall i : nat, (i < ?n)%nat -> _ => eval vm_compute in n
  | forall i : nat, (i <= ?n)%nat -> _ => eval vm_compute in (S n)
  end.

Ltac coins_count_members Q k acc tac :=
  lazymatch k with
  | O => tac acc
  | S ?j =>
      let G := eval cbv beta in (Q j) in
      tryif coins_count_premises G then
        let e := lazymatch coins_conclusion G with In ?e _ => eval vm_compute in e end in
        coins_count_members Q j (e :: acc) tac
      else coins_count_members Q j acc tac
  end.

Ltac coins_count_witness C A tac :=
  lazymatch C with
  | ?X /\ ?Y => first [ coins_count_witness X A tac | coins_count_witness Y A tac ]
  | forall i : nat, @?Q i =>
      let b := coins_count_bound C in
      coins_smaller b 65;
      let G := eval cbv beta in (Q O) in
      let t := coins_conclusion G in
      lazymatch t with
      | @In A _ nil =>
          let d := coins_eq_dec A in
          coins_count_members Q b (@nil A) ltac:(fun acc => let M := eval vm_compute in (nodup d acc) in tac M)
      end
  end.

Ltac coins_count_at H k :=
  lazymatch k with
  | S ?j => first [ exact (H j ltac:(vm_compute; first [reflexivity | lia | coins_crush])) | coins_count_at H j ]
  end.

Ltac coins_count_in l :=
  match goal with
  | H : forall i : nat, _ |- In _ l =>
      first [ eapply H; solve [coins_clear_all; coins_crush]
            | let T := type of H in let k := coins_count_bound T in coins_smaller k 65; coins_count_at H k ]
  end.

Ltac coins_count_cover l Hx :=
  lazymatch type of Hx with
  | False => contradiction
  | _ \/ _ => let Ht := fresh "Ht" in
              destruct Hx as [Hx|Ht]; [ subst; coins_count_in l | coins_count_cover l Ht ]
  end.

Ltac coins_count_member l x Hx :=
  match goal with
  | H : forall i : _, In i l -> _ |- _ => let Hp := fresh "Hp" in
      pose proof (H x Hx) as Hp; clear - Hp; coins_crush
  end.

Ltac coins_count_refute l M :=
  repeat match goal with H : _ /\ _ |- _ => destruct H end;
  let Hs := fresh "Hs" in let Hm := fresh "Hm" in let Hn := fresh "Hn" in
  let x := fresh "x" in let Hx := fresh "Hx" in
  match goal with
  | Hnd : NoDup l |- _ =>
      first [ assert (Hs : incl l M) by (intros x Hx; coins_count_member l x Hx);
              pose proof (NoDup_incl_length Hnd Hs) as Hn; simpl in Hn; lia
            | assert (Hs : incl M l) by (intros x Hx; simpl in Hx; coins_count_cover l Hx);
              assert (Hm : NoDup M) by (coins_clear_all; coins_crush);
              pose proof (NoDup_incl_length Hm Hs) as Hn; simpl in Hn; lia ]
  end.

Ltac coins_count :=
  repeat intro;
  lazymatch goal with
  | |- @ex (list ?A) ?F =>
      let C := eval cbv beta in (F (@nil A)) in
      coins_count_witness C A ltac:(fun M => exists M; coins_crush)
  | H : @ex (list ?A) ?F |- False =>
      let C := eval cbv beta in (F (@nil A)) in
      let l := fresh "l" in let Hl := fresh "Hl" in
      coins_count_witness C A ltac:(fun M => destruct H as [l Hl]; coins_count_refute l M)
  end.
