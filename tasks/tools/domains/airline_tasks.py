"""The airline domain's task generator: 25 tasks over the seeded database, each with gold actions."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from tasks.tools.domains.airline_db import CABINS, CERTIFICATE_PER_PASSENGER, FREE_BAGS, NOW, build_db
from tasks.tools.domains.authoring import make_task

KINDS = ("book", "cancel", "refuse", "bags", "passenger", "change", "upgrade", "compensate")


def _credit_card(user: dict[str, Any]) -> str:
    return next(m for m in sorted(user["payment_methods"]) if m.startswith("credit_card"))


def _future_available(db: dict[str, Any], reservation: dict[str, Any]) -> bool:
    return all(
        db["flights"][s["flight_number"]]["dates"][s["date"]]["status"] in ("available", "delayed")
        for s in reservation["flights"]
    )


def _recent(reservation: dict[str, Any]) -> bool:
    return NOW - datetime.fromisoformat(reservation["created_at"]) <= timedelta(hours=24)


def build_tasks(seed: int = 0) -> list[dict[str, Any]]:
    """25 airline tasks, deterministic for ``seed``."""
    db = build_db()
    rng = random.Random(f"airline-tasks:{seed}")
    reservations = sorted(db["reservations"].values(), key=lambda r: r["reservation_id"])
    rng.shuffle(reservations)
    used: set[str] = set()
    tasks: list[dict[str, Any]] = []
    attempts = 0
    while len(tasks) < 25:
        kind = KINDS[attempts % len(KINDS)]
        attempts += 1
        if attempts > 800:
            raise RuntimeError("airline task generator ran out of candidates")
        if kind == "book":
            task = _book(str(len(tasks)), db, rng)
        else:
            candidates = [r for r in reservations if r["reservation_id"] not in used and _fits(kind, db, r)]
            if not candidates:
                continue
            reservation = candidates[0]
            used.add(reservation["reservation_id"])
            task = _make(kind, str(len(tasks)), db, reservation, rng)
        if task is not None:
            tasks.append(task)
    return tasks


def _fits(kind: str, db: dict[str, Any], r: dict[str, Any]) -> bool:
    user = db["users"][r["user_id"]]
    statuses = [db["flights"][s["flight_number"]]["dates"][s["date"]]["status"] for s in r["flights"]]
    if kind == "compensate":
        return "cancelled" in statuses and (
            user["membership"] != "regular" or r["insurance"] == "yes" or r["cabin"] == "business"
        )
    if not _future_available(db, r):
        return False
    if kind == "cancel":
        return _recent(r) or r["insurance"] == "yes" or r["cabin"] == "business"
    if kind == "refuse":
        return not _recent(r) and r["insurance"] == "no" and r["cabin"] != "business"
    if kind in ("change", "upgrade"):
        return r["cabin"] != "basic_economy" and all(
            db["flights"][s["flight_number"]]["dates"][s["date"]]["status"] == "available" for s in r["flights"]
        )
    return True


def _known(user: dict[str, Any], r: dict[str, Any] | None = None) -> str:
    text = f"You are {user['name']}; your user id is {user['user_id']}."
    if r is not None:
        text += f" Your reservation id is {r['reservation_id']}."
    return text


def _book(task_id: str, db: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    user = db["users"][rng.choice(sorted(db["users"]))]
    flight = db["flights"][rng.choice(sorted(db["flights"]))]
    date = rng.choice([d for d in sorted(flight["dates"]) if d > f"{NOW:%Y-%m-%d}"])
    if flight["dates"][date]["status"] != "available" or flight["dates"][date]["seats"]["economy"] < 1:
        return None
    own = next((r for r in db["reservations"].values() if r["user_id"] == user["user_id"]), None)
    if own is None:
        return None
    me = own["passengers"][0]
    card = _credit_card(user)
    args = {
        "user_id": user["user_id"],
        "origin": flight["origin"],
        "destination": flight["destination"],
        "flight_type": "one_way",
        "cabin": "economy",
        "flights": [{"flight_number": flight["flight_number"], "date": date}],
        "passengers": [me],
        "payment_method_id": card,
        "total_baggages": 0,
        "nonfree_baggages": 0,
        "insurance": "no",
    }
    return make_task(
        task_id,
        "airline",
        "Book a one-way economy flight.",
        f"You want a one-way economy flight from {flight['origin']} to {flight['destination']} on {date}, "
        f"the {flight['departure']} departure, for yourself only, no checked bags, no insurance, paid with "
        f"your credit card {card}.",
        _known(user) + f" Your date of birth is {me['dob']}.",
        [
            ("get_user_details", {"user_id": user["user_id"]}),
            ("search_direct_flight", {"origin": flight["origin"], "destination": flight["destination"], "date": date}),
            ("book_reservation", args),
        ],
    )


def _make(kind: str, task_id: str, db: dict[str, Any], r: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    user = db["users"][r["user_id"]]
    rid = r["reservation_id"]
    lookup = [("get_user_details", {"user_id": user["user_id"]}), ("get_reservation_details", {"reservation_id": rid})]
    card = _credit_card(user)
    flights = [{"flight_number": s["flight_number"], "date": s["date"]} for s in r["flights"]]
    if kind == "cancel":
        return make_task(
            task_id,
            "airline",
            "Cancel a reservation that the fare rules allow to cancel.",
            f"You want to cancel reservation {rid}; your plans changed.",
            _known(user, r),
            [*lookup, ("cancel_reservation", {"reservation_id": rid})],
        )
    if kind == "refuse":
        return make_task(
            task_id,
            "airline",
            "Refuse a cancellation the fare rules forbid, and explain the rule.",
            f"You want to cancel reservation {rid} and get a refund. If it is not allowed, ask why, then end.",
            _known(user, r),
            lookup,
            communicate=["24 hours"],
            basis=("DB", "COMMUNICATE"),
        )
    if kind == "bags":
        count = len(r["passengers"])
        free = FREE_BAGS[user["membership"]][CABINS.index(r["cabin"])] * count
        total = r["total_baggages"] + 2
        nonfree = max(0, total - free)
        fee = 50 * (nonfree - r["nonfree_baggages"])
        return make_task(
            task_id,
            "airline",
            "Add two checked bags and state the fee.",
            f"You want to add 2 checked bags to reservation {rid}, paid with credit card {card} if there is "
            "a fee. Ask what the fee is.",
            _known(user, r),
            [
                *lookup,
                (
                    "update_reservation_baggages",
                    {
                        "reservation_id": rid,
                        "total_baggages": total,
                        "nonfree_baggages": nonfree,
                        "payment_method_id": card,
                    },
                ),
            ],
            communicate=[str(fee)],
            basis=("DB", "COMMUNICATE"),
        )
    if kind == "passenger":
        passengers = [dict(p) for p in r["passengers"]]
        new_dob = f"19{rng.randrange(60, 99)}-1{rng.randrange(0, 2)}-2{rng.randrange(0, 8)}"
        if new_dob == passengers[0]["dob"]:
            return None
        passengers[0]["dob"] = new_dob
        return make_task(
            task_id,
            "airline",
            "Correct a passenger's date of birth.",
            f"On reservation {rid}, the date of birth of {passengers[0]['first_name']} "
            f"{passengers[0]['last_name']} is wrong; it should be {new_dob}. The other passengers stay as they are.",
            _known(user, r),
            [*lookup, ("update_reservation_passengers", {"reservation_id": rid, "passengers": passengers})],
        )
    if kind == "change":
        seg = r["flights"][0]
        flight = db["flights"][seg["flight_number"]]
        later = [
            d
            for d in sorted(flight["dates"])
            if d > seg["date"]
            and flight["dates"][d]["status"] == "available"
            and flight["dates"][d]["seats"][r["cabin"]] >= len(r["passengers"])
        ]
        if not later:
            return None
        date = later[0]
        return make_task(
            task_id,
            "airline",
            "Move a reservation to a later date on the same flight.",
            f"You want to move reservation {rid} to flight {seg['flight_number']} on {date}, same cabin; "
            f"pay or receive any difference on credit card {card}.",
            _known(user, r),
            [
                *lookup,
                ("search_direct_flight", {"origin": seg["origin"], "destination": seg["destination"], "date": date}),
                (
                    "update_reservation_flights",
                    {
                        "reservation_id": rid,
                        "cabin": r["cabin"],
                        "flights": [{"flight_number": seg["flight_number"], "date": date}],
                        "payment_method_id": card,
                    },
                ),
            ],
        )
    if kind == "upgrade":
        if r["cabin"] == "business" or any(
            db["flights"][f["flight_number"]]["dates"][f["date"]]["seats"]["business"] < len(r["passengers"])
            for f in flights
        ):
            return None
        return make_task(
            task_id,
            "airline",
            "Upgrade a reservation to business.",
            f"You want to upgrade reservation {rid} to business class on the same flights, paying the "
            f"difference with credit card {card}.",
            _known(user, r),
            [
                *lookup,
                (
                    "update_reservation_flights",
                    {"reservation_id": rid, "cabin": "business", "flights": flights, "payment_method_id": card},
                ),
            ],
        )
    seg = next(
        s for s in r["flights"] if db["flights"][s["flight_number"]]["dates"][s["date"]]["status"] == "cancelled"
    )
    amount = CERTIFICATE_PER_PASSENGER * len(r["passengers"])
    return make_task(
        task_id,
        "airline",
        "Compensate an eligible user for an airline-cancelled flight.",
        f"Your flight {seg['flight_number']} on {seg['date']} (reservation {rid}) was cancelled by the airline. "
        "You are upset and want compensation; you do not want to change or cancel the reservation.",
        _known(user, r),
        [
            *lookup,
            ("get_flight_status", {"flight_number": seg["flight_number"], "date": seg["date"]}),
            ("send_certificate", {"user_id": user["user_id"], "amount": amount}),
        ],
        communicate=[str(amount)],
        basis=("DB", "COMMUNICATE"),
    )
