"""The telecom domain's task generator: 25 no-data cases, each one or two faults across phone and line."""

from __future__ import annotations

import itertools
from typing import Any

from tasks.tools.domains.authoring import make_task
from tasks.tools.domains.telecom_db import PLANS, build_db

FAULTS = ("airplane", "data_off", "sim", "network", "suspended", "data_used_up", "abroad")
SYMPTOMS = {
    "airplane": "an airplane icon shows in the status bar",
    "data_off": "the data icon is missing",
    "sim": "the phone says 'no SIM'",
    "network": "you changed some network settings last week",
    "suspended": "you may have missed a bill payment",
    "data_used_up": "you used a lot of data this month",
    "abroad": "you are travelling abroad",
}


def build_tasks(seed: int = 0) -> list[dict[str, Any]]:
    """25 telecom tasks (the 7 single faults and 18 of the pairs), deterministic."""
    db = build_db()
    combos = [(f,) for f in FAULTS] + list(itertools.combinations(FAULTS, 2))[:18]
    customers = sorted(db["customers"].values(), key=lambda c: c["customer_id"])
    return [
        _task(str(i), combo, customer, db) for i, (combo, customer) in enumerate(zip(combos, customers, strict=False))
    ]


def _task(task_id: str, faults: tuple[str, ...], customer: dict[str, Any], db: dict[str, Any]) -> dict[str, Any]:
    line_id = customer["line_ids"][0]
    line = db["lines"][line_id]
    phone = customer["phone_number"]
    device: dict[str, Any] = {"phone_number": phone}
    agent_data: dict[str, Any] = {}
    agent_fix: list[tuple[str, dict[str, Any]]] = []
    user_fix: list[tuple[str, str, dict[str, Any]]] = []
    known = f"Your phone number is {phone}."
    if "airplane" in faults:
        device["airplane_mode"] = True
        user_fix.append(("user", "toggle_airplane_mode", {"on": False}))
    if "data_off" in faults:
        device["mobile_data"] = False
        user_fix.append(("user", "toggle_mobile_data", {"on": True}))
    if "sim" in faults:
        device["sim_seated"] = False
        user_fix.append(("user", "reseat_sim_card", {}))
    if "network" in faults:
        device["apn"], device["network_mode"] = "wap.broken", "2g"
        user_fix.append(("user", "reset_network_settings", {}))
    if "suspended" in faults:
        bill_id = sorted(customer["bills"])[-1]
        agent_data = {
            "lines": {line_id: {"status": "suspended"}},
            "customers": {customer["customer_id"]: {"bills": {bill_id: {"status": "overdue"}}}},
        }
        agent_fix += [
            ("get_bills", {"customer_id": customer["customer_id"]}),
            ("pay_bill", {"customer_id": customer["customer_id"], "bill_id": bill_id}),
            ("resume_line", {"line_id": line_id}),
        ]
        known += " You agree to pay an overdue bill with your card on file."
    if "data_used_up" in faults:
        limit = next(p[2] for p in PLANS if p[0] == line["plan_id"])
        agent_data.setdefault("lines", {}).setdefault(line_id, {})["data_used_gb"] = limit
        agent_fix += [
            ("get_plan_details", {"plan_id": line["plan_id"]}),
            ("refuel_data", {"line_id": line_id, "gb": 2.0}),
        ]
        known += " If you need more data, you want exactly 2 GB."
    if "abroad" in faults:
        device["abroad"] = True
        agent_fix.append(("set_line_roaming", {"line_id": line_id, "enabled": True}))
        user_fix.append(("user", "toggle_roaming", {"on": True}))
        known += " You want roaming enabled."
    symptoms = " and ".join(SYMPTOMS[f] for f in faults)
    actions = [("get_customer_by_phone", {"phone_number": phone}), ("get_line_details", {"line_id": line_id})]
    return make_task(
        task_id,
        "telecom",
        f"Restore mobile data ({', '.join(faults)}).",
        f"Mobile data does not work on your phone; {symptoms}. You want it working again.",
        known,
        [*actions, *agent_fix, *user_fix],
        instructions="Do what the agent asks on your phone and report what you see.",
        basis=("DB", "ENV_ASSERTION"),
        initial_state={
            "initialization_data": {"agent_data": agent_data or None, "user_data": None},
            "initialization_actions": [{"env_type": "user", "func_name": "set_device_state", "arguments": device}],
            "message_history": None,
        },
        env_assertions=[
            {
                "env_type": "user",
                "func_name": "assert_mobile_data_working",
                "arguments": {},
                "assert_value": True,
                "message": "mobile data works",
            }
        ],
    )
