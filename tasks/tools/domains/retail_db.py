"""Retail domain data: the database records and the seeded generator of the initial database."""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel

from tasks.tools.domains.names import CITIES, FIRST_NAMES, LAST_NAMES, STREETS

OrderStatus = Literal[
    "pending",
    "pending (item modified)",
    "processed",
    "delivered",
    "cancelled",
    "return requested",
    "exchange requested",
]


class Address(BaseModel):
    """A postal address."""

    address1: str
    address2: str
    city: str
    state: str
    country: str
    zip: str


class PaymentMethod(BaseModel):
    """A stored payment method; gift cards carry a balance."""

    id: str
    source: Literal["credit_card", "gift_card", "paypal"]
    balance: float | None = None


class User(BaseModel):
    """A customer."""

    user_id: str
    first_name: str
    last_name: str
    email: str
    address: Address
    payment_methods: dict[str, PaymentMethod]
    orders: list[str]


class Variant(BaseModel):
    """One purchasable variant of a product."""

    item_id: str
    options: dict[str, str]
    price: float
    available: bool


class Product(BaseModel):
    """A product type with its variants."""

    product_id: str
    name: str
    variants: dict[str, Variant]


class OrderItem(BaseModel):
    """An item in an order."""

    item_id: str
    product_id: str
    name: str
    options: dict[str, str]
    price: float


class Payment(BaseModel):
    """A payment or refund of an order."""

    transaction_type: Literal["payment", "refund"]
    amount: float
    payment_method_id: str


class Order(BaseModel):
    """An order and what happened to it."""

    order_id: str
    user_id: str
    status: OrderStatus
    address: Address
    items: list[OrderItem]
    payment_history: list[Payment]
    cancel_reason: str | None = None
    return_items: list[str] = []
    return_payment_method_id: str | None = None
    exchange_items: list[str] = []
    exchange_new_items: list[str] = []
    exchange_payment_method_id: str | None = None


class RetailDB(BaseModel):
    """The retail database."""

    users: dict[str, User]
    products: dict[str, Product]
    orders: dict[str, Order]


CATALOG: tuple[tuple[str, dict[str, tuple[str, ...]], float], ...] = (
    ("Mechanical Keyboard", {"switch": ("linear", "tactile", "clicky"), "backlight": ("none", "RGB")}, 129.0),
    (
        "Smart Thermostat",
        {"compatibility": ("Apple HomeKit", "Google Home", "Amazon Alexa"), "color": ("white", "black")},
        199.0,
    ),
    ("Running Shoes", {"size": ("8", "9", "10", "11"), "color": ("black", "red")}, 89.0),
    ("Water Bottle", {"capacity": ("500ml", "750ml", "1000ml"), "material": ("steel", "glass")}, 24.0),
    ("Desk Lamp", {"color": ("black", "white", "silver"), "power": ("USB", "AC adapter")}, 45.0),
    ("Backpack", {"size": ("small", "medium", "large"), "material": ("nylon", "leather")}, 79.0),
    ("Wireless Earbuds", {"color": ("black", "white", "blue"), "battery": ("6h", "8h")}, 119.0),
    ("Coffee Maker", {"capacity": ("4 cups", "8 cups", "12 cups"), "type": ("drip", "espresso")}, 149.0),
)


def round_money(value: float) -> float:
    """Round to cents, nudging half-cents up the way a till does."""
    return round(value + 1e-9, 2)


def build_db(seed: int = 7) -> dict[str, Any]:
    """The retail database, generated deterministically from ``seed``."""
    rng = random.Random(f"retail:{seed}")
    products: dict[str, Any] = {}
    for index, (name, options, base) in enumerate(CATALOG):
        product_id = f"{1000000000 + index * 7919:010d}"
        variants = {}
        combos: list[dict[str, str]] = [{}]
        for key, values in options.items():
            combos = [{**c, key: v} for c in combos for v in values]
        for combo in combos:
            item_id = f"{rng.randrange(10**9, 10**10)}"
            variants[item_id] = {
                "item_id": item_id,
                "options": combo,
                "price": round_money(base * rng.uniform(0.85, 1.25)),
                "available": rng.random() > 0.2,
            }
        products[product_id] = {"product_id": product_id, "name": name, "variants": variants}
    users: dict[str, Any] = {}
    orders: dict[str, Any] = {}
    for index in range(24):
        first, last = FIRST_NAMES[index % len(FIRST_NAMES)], LAST_NAMES[(index * 7) % len(LAST_NAMES)]
        user_id = f"{first.lower()}_{last.lower()}_{rng.randrange(1000, 9999)}"
        city, state, zip_code = rng.choice(CITIES)
        address = {
            "address1": f"{rng.randrange(10, 999)} {rng.choice(STREETS)}",
            "address2": f"Suite {rng.randrange(100, 999)}",
            "city": city,
            "state": state,
            "country": "USA",
            "zip": zip_code,
        }
        methods = {}
        for source in rng.sample(["credit_card", "gift_card", "paypal"], rng.randint(1, 3)):
            method_id = f"{source}_{rng.randrange(1000000, 9999999)}"
            methods[method_id] = {
                "id": method_id,
                "source": source,
                "balance": round_money(rng.uniform(20, 400)) if source == "gift_card" else None,
            }
        order_ids: list[str] = []
        user = {
            "user_id": user_id,
            "first_name": first,
            "last_name": last,
            "email": f"{first.lower()}.{last.lower()}{rng.randrange(10, 99)}@example.com",
            "address": address,
            "payment_methods": methods,
            "orders": order_ids,
        }
        for _ in range(rng.randint(2, 4)):
            order_id = f"#W{rng.randrange(1000000, 9999999)}"
            items = []
            for product in rng.sample(sorted(products.values(), key=lambda p: p["product_id"]), rng.randint(1, 3)):
                variant = rng.choice(sorted(product["variants"].values(), key=lambda v: v["item_id"]))
                items.append(
                    {
                        "item_id": variant["item_id"],
                        "product_id": product["product_id"],
                        "name": product["name"],
                        "options": variant["options"],
                        "price": variant["price"],
                    }
                )
            total = round_money(sum(i["price"] for i in items))
            method = rng.choice(sorted(methods))
            orders[order_id] = {
                "order_id": order_id,
                "user_id": user_id,
                "address": address,
                "items": items,
                "status": rng.choice(["pending", "pending", "processed", "delivered", "delivered", "cancelled"]),
                "payment_history": [{"transaction_type": "payment", "amount": total, "payment_method_id": method}],
            }
            order_ids.append(order_id)
        users[user_id] = user
    return {"users": users, "products": products, "orders": orders}
