"""The retail domain's task generator: 25 tasks over the seeded database, each with gold actions."""

from __future__ import annotations

import random
from typing import Any

from tasks.tools.domains.authoring import make_task
from tasks.tools.domains.names import CITIES, STREETS
from tasks.tools.domains.retail_db import build_db

REASONS = ("no longer needed", "ordered by mistake")


def _ident(user: dict[str, Any], by_email: bool) -> tuple[str, tuple[str, dict[str, Any]]]:
    name = f"{user['first_name']} {user['last_name']}"
    if by_email:
        return f"You are {name}. Your email is {user['email']}.", ("find_user_id_by_email", {"email": user["email"]})
    return (
        f"You are {name}, zip code {user['address']['zip']}. You do not remember your email.",
        (
            "find_user_id_by_name_zip",
            {"first_name": user["first_name"], "last_name": user["last_name"], "zip": user["address"]["zip"]},
        ),
    )


def _other_variant(db: dict[str, Any], item: dict[str, Any]) -> dict[str, Any] | None:
    variants = sorted(db["products"][item["product_id"]]["variants"].values(), key=lambda v: v["item_id"])
    for variant in variants:
        if variant["available"] and variant["item_id"] != item["item_id"]:
            return variant
    return None


def _describe(options: dict[str, str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in options.items())


def build_tasks(seed: int = 0) -> list[dict[str, Any]]:
    """25 retail tasks, deterministic for ``seed``."""
    db = build_db()
    rng = random.Random(f"retail-tasks:{seed}")
    orders = sorted(db["orders"].values(), key=lambda o: o["order_id"])
    by_status: dict[str, list[dict[str, Any]]] = {}
    for order in orders:
        by_status.setdefault(order["status"], []).append(order)
    for group in by_status.values():
        rng.shuffle(group)
    tasks: list[dict[str, Any]] = []
    kinds = ("cancel", "address", "return", "exchange", "items", "payment", "refuse", "user_address")
    count = 0
    while len(tasks) < 25:
        kind = kinds[count % len(kinds)]
        count += 1
        task = _make(kind, str(len(tasks)), db, by_status, rng)
        if task is not None:
            tasks.append(task)
        if count > 400:
            raise RuntimeError("retail task generator ran out of candidate orders")
    return tasks


def _make(
    kind: str, task_id: str, db: dict[str, Any], by_status: dict[str, list[dict[str, Any]]], rng: random.Random
) -> dict[str, Any] | None:
    status = {
        "cancel": "pending",
        "address": "pending",
        "items": "pending",
        "payment": "pending",
        "return": "delivered",
        "exchange": "delivered",
        "refuse": "processed",
        "user_address": "delivered",
    }[kind]
    pool = by_status.get(status, [])
    if not pool:
        return None
    order = pool.pop()
    user = db["users"][order["user_id"]]
    known, find = _ident(user, by_email=rng.random() < 0.5)
    oid = order["order_id"]
    lookup = [find, ("get_order_details", {"order_id": oid})]
    first_item = order["items"][0]
    if kind == "cancel":
        reason = rng.choice(REASONS)
        return make_task(
            task_id,
            "retail",
            "Cancel a pending order with the stated reason.",
            f"You want to cancel order {oid} because it is {reason}.",
            known,
            [*lookup, ("cancel_pending_order", {"order_id": oid, "reason": reason})],
        )
    if kind in ("address", "user_address"):
        city, state, zip_code = rng.choice(CITIES)
        address = {
            "address1": f"{rng.randrange(10, 999)} {rng.choice(STREETS)}",
            "address2": "",
            "city": city,
            "state": state,
            "country": "USA",
            "zip": zip_code,
        }
        text = f"{address['address1']}, {city}, {state} {zip_code}, USA (no second line)"
        if kind == "address":
            return make_task(
                task_id,
                "retail",
                "Change the shipping address of a pending order.",
                f"You moved; order {oid} must ship to {text}.",
                known,
                [*lookup, ("modify_pending_order_address", {"order_id": oid, **address})],
            )
        return make_task(
            task_id,
            "retail",
            "Update the user's default address.",
            f"You moved and want your account's default address changed to {text}.",
            known,
            [
                find,
                ("get_user_details", {"user_id": user["user_id"]}),
                ("modify_user_address", {"user_id": user["user_id"], **address}),
            ],
        )
    if kind == "return":
        methods = sorted(user["payment_methods"].values(), key=lambda m: m["id"])
        original = order["payment_history"][0]["payment_method_id"]
        target = next((m["id"] for m in methods if m["source"] == "gift_card"), original)
        refund = round(sum(i["price"] for i in order["items"]), 2)
        is_gift = user["payment_methods"][target]["source"] == "gift_card"
        where = f"your gift card ({target})" if is_gift else "the original payment method"
        return make_task(
            task_id,
            "retail",
            "Return every item of a delivered order and state the refund.",
            f"You want to return everything in order {oid}, refunded to {where}. Ask how much you will get back.",
            known,
            [
                *lookup,
                (
                    "return_delivered_order_items",
                    {
                        "order_id": oid,
                        "item_ids": sorted(i["item_id"] for i in order["items"]),
                        "payment_method_id": target,
                    },
                ),
            ],
            communicate=[f"{refund:.2f}"],
            basis=("DB", "COMMUNICATE"),
        )
    if kind in ("exchange", "items"):
        variant = _other_variant(db, first_item)
        if variant is None:
            return None
        method = order["payment_history"][0]["payment_method_id"]
        gift = db["users"][order["user_id"]]["payment_methods"][method]
        if gift["source"] == "gift_card" and variant["price"] - first_item["price"] > (gift["balance"] or 0):
            return None
        args = {
            "order_id": oid,
            "item_ids": [first_item["item_id"]],
            "new_item_ids": [variant["item_id"]],
            "payment_method_id": method,
        }
        verb = "exchange" if kind == "exchange" else "change"
        tool = "exchange_delivered_order_items" if kind == "exchange" else "modify_pending_order_items"
        return make_task(
            task_id,
            "retail",
            f"{verb.title()} an item for another variant of the same product.",
            f"In order {oid} you want to {verb} the {first_item['name']} ({_describe(first_item['options'])}) "
            f"for the one with {_describe(variant['options'])}. Any price difference goes on the payment "
            "method used for the order.",
            known,
            [*lookup, ("get_product_details", {"product_id": first_item["product_id"]}), (tool, args)],
        )
    if kind == "payment":
        original = order["payment_history"][0]["payment_method_id"]
        total = order["payment_history"][0]["amount"]
        options = [
            m
            for m in sorted(user["payment_methods"].values(), key=lambda m: m["id"])
            if m["id"] != original and (m["source"] != "gift_card" or (m["balance"] or 0) >= total)
        ]
        if not options:
            return None
        new = options[0]
        return make_task(
            task_id,
            "retail",
            "Switch the payment method of a pending order.",
            f"You want order {oid} paid with your {new['source'].replace('_', ' ')} ({new['id']}) instead.",
            known,
            [
                *lookup,
                ("get_user_details", {"user_id": user["user_id"]}),
                ("modify_pending_order_payment", {"order_id": oid, "payment_method_id": new["id"]}),
            ],
        )
    return make_task(
        task_id,
        "retail",
        "Refuse to cancel a processed order and say why.",
        f"You want to cancel order {oid}. If it cannot be cancelled, you want to know why, then you are done.",
        known,
        lookup,
        communicate=["processed"],
        basis=("DB", "COMMUNICATE"),
    )
