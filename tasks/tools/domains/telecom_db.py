"""Telecom domain data: the provider's records, the user's phone, and the seeded generator of both."""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel

from tasks.tools.domains.names import FIRST_NAMES, LAST_NAMES

DEFAULT_APN = "internet"
NetworkMode = Literal["5g", "4g", "3g", "2g", "none"]


class Plan(BaseModel):
    """A mobile plan."""

    plan_id: str
    name: str
    data_limit_gb: float
    price: float
    refuel_price_per_gb: float


class Line(BaseModel):
    """A phone line."""

    line_id: str
    phone_number: str
    plan_id: str
    status: Literal["active", "suspended"]
    data_used_gb: float
    data_refueled_gb: float
    roaming_enabled: bool


class Bill(BaseModel):
    """A bill."""

    bill_id: str
    amount: float
    status: Literal["paid", "overdue"]


class Customer(BaseModel):
    """A customer with lines and bills."""

    customer_id: str
    name: str
    phone_number: str
    payment_method_id: str
    line_ids: list[str]
    bills: dict[str, Bill]


class TelecomDB(BaseModel):
    """The provider's records."""

    plans: dict[str, Plan]
    customers: dict[str, Customer]
    lines: dict[str, Line]


class DeviceDB(BaseModel):
    """The user's phone."""

    phone_number: str
    airplane_mode: bool = False
    mobile_data: bool = True
    roaming: bool = False
    sim_seated: bool = True
    apn: str = DEFAULT_APN
    network_mode: NetworkMode = "4g"
    abroad: bool = False


PLANS = (
    ("P_BASIC", "Basic 2GB", 2.0, 15.0, 5.0),
    ("P_PLUS", "Plus 10GB", 10.0, 30.0, 3.0),
    ("P_MAX", "Max 50GB", 50.0, 55.0, 2.0),
)


def build_db(seed: int = 5) -> dict[str, Any]:
    """The provider's records, generated deterministically from ``seed``."""
    rng = random.Random(f"telecom:{seed}")
    plans = {
        p[0]: {"plan_id": p[0], "name": p[1], "data_limit_gb": p[2], "price": p[3], "refuel_price_per_gb": p[4]}
        for p in PLANS
    }
    customers: dict[str, Any] = {}
    lines: dict[str, Any] = {}
    for index in range(30):
        customer_id = f"C{1000 + index}"
        phone = f"555-{100 + index:03d}-{rng.randrange(1000, 9999)}"
        line_id = f"L{2000 + index}"
        plan = rng.choice(PLANS)
        lines[line_id] = {
            "line_id": line_id,
            "phone_number": phone,
            "plan_id": plan[0],
            "status": "active",
            "data_used_gb": round(rng.uniform(0, plan[2] * 0.9), 1),
            "data_refueled_gb": 0.0,
            "roaming_enabled": False,
        }
        bills = {
            f"B{customer_id}-{m}": {"bill_id": f"B{customer_id}-{m}", "amount": plan[3], "status": "paid"}
            for m in ("2024-03", "2024-04")
        }
        customers[customer_id] = {
            "customer_id": customer_id,
            "name": f"{FIRST_NAMES[index % 30]} {LAST_NAMES[(index * 3) % 20]}",
            "phone_number": phone,
            "payment_method_id": f"card_{rng.randrange(100000, 999999)}",
            "line_ids": [line_id],
            "bills": bills,
        }
    return {"plans": plans, "customers": customers, "lines": lines}


def build_device() -> dict[str, Any]:
    """A healthy phone; each task's setup breaks it and picks its number."""
    return DeviceDB(phone_number="").model_dump()
