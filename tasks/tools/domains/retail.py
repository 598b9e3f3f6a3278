"""Retail domain: orders, cancellations, address and payment changes, returns and exchanges."""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel

from tasks.tools.domains.names import CITIES, FIRST_NAMES, LAST_NAMES, STREETS
from tasks.tools.framework.toolkit import Toolkit, ToolError, ToolKind, tool

POLICY = """# Retail agent policy
- Authenticate the user first: find their user id by email, or by first name, last name and zip code,
  even if they give you a user id.
- Help only the authenticated user, and only with their own orders.
- Before a change, state what you will do; the user's explicit confirmation is needed (a user who says they
  confirm every change they asked for has confirmed).
- Cancel only orders whose status is 'pending'; the reason must be 'no longer needed' or 'ordered by mistake'.
  Refunds go to the original payment method.
- Pending orders may have their address, payment method or items changed; items can be changed only once,
  and only for another available variant of the same product.
- Orders that are 'processed' can no longer be cancelled or changed: tell the user the order is processed.
- Delivered orders may have items returned (refund to the original payment method or a gift card) or
  exchanged for available variants of the same product (price difference charged or refunded).
- Never make up product, order or user information.
"""

OrderStatus = Literal["pending", "pending (item modified)", "processed", "delivered", "cancelled",
                      "return requested", "exchange requested"]


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
    ("Smart Thermostat", {"compatibility": ("Apple HomeKit", "Google Home", "Amazon Alexa"), "color": ("white", "black")}, 199.0),
    ("Running Shoes", {"size": ("8", "9", "10", "11"), "color": ("black", "red")}, 89.0),
    ("Water Bottle", {"capacity": ("500ml", "750ml", "1000ml"), "material": ("steel", "glass")}, 24.0),
    ("Desk Lamp", {"color": ("black", "white", "silver"), "power": ("USB", "AC adapter")}, 45.0),
    ("Backpack", {"size": ("small", "medium", "large"), "material": ("nylon", "leather")}, 79.0),
    ("Wireless Earbuds", {"color": ("black", "white", "blue"), "battery": ("6h", "8h")}, 119.0),
    ("Coffee Maker", {"capacity": ("4 cups", "8 cups", "12 cups"), "type": ("drip", "espresso")}, 149.0),
)


def _money(value: float) -> float:
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
            variants[item_id] = {"item_id": item_id, "options": combo,
                                 "price": _money(base * rng.uniform(0.85, 1.25)), "available": rng.random() > 0.2}
        products[product_id] = {"product_id": product_id, "name": name, "variants": variants}
    users: dict[str, Any] = {}
    orders: dict[str, Any] = {}
    for index in range(24):
        first, last = FIRST_NAMES[index % len(FIRST_NAMES)], LAST_NAMES[(index * 7) % len(LAST_NAMES)]
        user_id = f"{first.lower()}_{last.lower()}_{rng.randrange(1000, 9999)}"
        city, state, zip_code = rng.choice(CITIES)
        address = {"address1": f"{rng.randrange(10, 999)} {rng.choice(STREETS)}", "address2": f"Suite {rng.randrange(100, 999)}",
                   "city": city, "state": state, "country": "USA", "zip": zip_code}
        methods = {}
        for source in rng.sample(["credit_card", "gift_card", "paypal"], rng.randint(1, 3)):
            method_id = f"{source}_{rng.randrange(1000000, 9999999)}"
            methods[method_id] = {"id": method_id, "source": source,
                                  "balance": _money(rng.uniform(20, 400)) if source == "gift_card" else None}
        user = {"user_id": user_id, "first_name": first, "last_name": last,
                "email": f"{first.lower()}.{last.lower()}{rng.randrange(10, 99)}@example.com",
                "address": address, "payment_methods": methods, "orders": []}
        for _ in range(rng.randint(2, 4)):
            order_id = f"#W{rng.randrange(1000000, 9999999)}"
            items = []
            for product in rng.sample(sorted(products.values(), key=lambda p: p["product_id"]), rng.randint(1, 3)):
                variant = rng.choice(sorted(product["variants"].values(), key=lambda v: v["item_id"]))
                items.append({"item_id": variant["item_id"], "product_id": product["product_id"], "name": product["name"],
                              "options": variant["options"], "price": variant["price"]})
            total = _money(sum(i["price"] for i in items))
            method = rng.choice(sorted(methods))
            orders[order_id] = {"order_id": order_id, "user_id": user_id, "address": address, "items": items,
                                "status": rng.choice(["pending", "pending", "processed", "delivered", "delivered", "cancelled"]),
                                "payment_history": [{"transaction_type": "payment", "amount": total, "payment_method_id": method}]}
            user["orders"].append(order_id)
        users[user_id] = user
    return {"users": users, "products": products, "orders": orders}


class RetailTools(Toolkit):
    """The retail agent's tools."""

    db: RetailDB

    def _user(self, user_id: str) -> User:
        if user_id not in self.db.users:
            raise ToolError(f"user {user_id} not found")
        return self.db.users[user_id]

    def _order(self, order_id: str, *statuses: str) -> Order:
        order = self.db.orders.get(order_id)
        if order is None:
            raise ToolError(f"order {order_id} not found")
        if statuses and order.status not in statuses:
            raise ToolError(f"order {order_id} is {order.status}; this needs status {' or '.join(statuses)}")
        return order

    def _method(self, order: Order, method_id: str) -> PaymentMethod:
        method = self._user(order.user_id).payment_methods.get(method_id)
        if method is None:
            raise ToolError(f"payment method {method_id} not found for user {order.user_id}")
        return method

    def _charge(self, method: PaymentMethod, amount: float) -> None:
        if method.source == "gift_card":
            balance = method.balance or 0.0
            if amount > balance + 1e-9:
                raise ToolError(f"gift card {method.id} balance {balance:.2f} is below {amount:.2f}")
            method.balance = _money(balance - amount)

    def _new_variants(self, order: Order, item_ids: list[str], new_item_ids: list[str]) -> list[tuple[OrderItem, Variant]]:
        if not item_ids or len(item_ids) != len(new_item_ids):
            raise ToolError("item_ids and new_item_ids must be non-empty and of the same length")
        if len(set(item_ids)) != len(item_ids):
            raise ToolError("item_ids repeats an item")
        pairs = []
        for old_id, new_id in zip(item_ids, new_item_ids):
            old = next((i for i in order.items if i.item_id == old_id), None)
            if old is None:
                raise ToolError(f"item {old_id} is not in order {order.order_id}")
            variant = self.db.products[old.product_id].variants.get(new_id)
            if variant is None:
                raise ToolError(f"item {new_id} is not a variant of {old.name}")
            if not variant.available or new_id == old_id:
                raise ToolError(f"item {new_id} is not available as a new item")
            pairs.append((old, variant))
        return pairs

    @tool(ToolKind.READ)
    def find_user_id_by_email(self, email: str) -> str:
        """Find a user id by email address.

        Args:
            email: The user's email, such as 'jane.doe12@example.com'.
        """
        for user in self.db.users.values():
            if user.email.lower() == email.strip().lower():
                return user.user_id
        raise ToolError("no user with this email")

    @tool(ToolKind.READ)
    def find_user_id_by_name_zip(self, first_name: str, last_name: str, zip: str) -> str:
        """Find a user id by first name, last name and zip code.

        Args:
            first_name: The user's first name.
            last_name: The user's last name.
            zip: The zip code of the user's address.
        """
        for user in self.db.users.values():
            if (user.first_name.lower(), user.last_name.lower(), user.address.zip) == (
                    first_name.strip().lower(), last_name.strip().lower(), zip.strip()):
                return user.user_id
        raise ToolError("no user with this name and zip code")

    @tool(ToolKind.READ)
    def get_user_details(self, user_id: str) -> User:
        """Get a user's profile: address, payment methods and order ids.

        Args:
            user_id: The user id, such as 'jane_doe_1234'.
        """
        return self._user(user_id)

    @tool(ToolKind.READ)
    def get_order_details(self, order_id: str) -> Order:
        """Get an order's status, items, address and payments.

        Args:
            order_id: The order id, starting with '#W', such as '#W1234567'.
        """
        return self._order(order_id)

    @tool(ToolKind.READ)
    def get_product_details(self, product_id: str) -> Product:
        """Get a product's variants with their options, prices and availability.

        Args:
            product_id: The product id (ten digits).
        """
        if product_id not in self.db.products:
            raise ToolError(f"product {product_id} not found")
        return self.db.products[product_id]

    @tool(ToolKind.READ)
    def list_all_product_types(self) -> dict[str, str]:
        """List every product name with its product id."""
        return {p.name: p.product_id for p in self.db.products.values()}

    @tool(ToolKind.WRITE)
    def cancel_pending_order(self, order_id: str, reason: Literal["no longer needed", "ordered by mistake"]) -> Order:
        """Cancel a pending order and refund its payments to their original methods.

        Args:
            order_id: The order id, such as '#W1234567'.
            reason: Why the user cancels: 'no longer needed' or 'ordered by mistake'.
        """
        order = self._order(order_id, "pending", "pending (item modified)")
        for payment in [p for p in order.payment_history if p.transaction_type == "payment"]:
            method = self._method(order, payment.payment_method_id)
            if method.source == "gift_card":
                method.balance = _money((method.balance or 0.0) + payment.amount)
            order.payment_history.append(Payment(transaction_type="refund", amount=payment.amount,
                                                 payment_method_id=payment.payment_method_id))
        order.status, order.cancel_reason = "cancelled", reason
        return order

    @tool(ToolKind.WRITE)
    def modify_pending_order_address(self, order_id: str, address1: str, address2: str, city: str, state: str,
                                     country: str, zip: str) -> Order:
        """Change the shipping address of a pending order.

        Args:
            order_id: The order id, such as '#W1234567'.
            address1: First address line.
            address2: Second address line (may be empty).
            city: City.
            state: State code, such as 'TX'.
            country: Country, such as 'USA'.
            zip: Zip code.
        """
        order = self._order(order_id, "pending", "pending (item modified)")
        order.address = Address(address1=address1, address2=address2, city=city, state=state, country=country, zip=zip)
        return order

    @tool(ToolKind.WRITE)
    def modify_pending_order_payment(self, order_id: str, payment_method_id: str) -> Order:
        """Pay a pending order with another of the user's payment methods (the old payment is refunded).

        Args:
            order_id: The order id, such as '#W1234567'.
            payment_method_id: The new payment method id, such as 'gift_card_1234567'.
        """
        order = self._order(order_id, "pending", "pending (item modified)")
        payments = [p for p in order.payment_history if p.transaction_type == "payment"]
        if len(payments) != 1:
            raise ToolError("only orders with exactly one payment can change their payment method")
        old = payments[0]
        if old.payment_method_id == payment_method_id:
            raise ToolError("the new payment method is the one already used")
        new_method = self._method(order, payment_method_id)
        self._charge(new_method, old.amount)
        old_method = self._method(order, old.payment_method_id)
        if old_method.source == "gift_card":
            old_method.balance = _money((old_method.balance or 0.0) + old.amount)
        order.payment_history += [Payment(transaction_type="payment", amount=old.amount, payment_method_id=payment_method_id),
                                  Payment(transaction_type="refund", amount=old.amount, payment_method_id=old.payment_method_id)]
        return order

    @tool(ToolKind.WRITE)
    def modify_pending_order_items(self, order_id: str, item_ids: list[str], new_item_ids: list[str],
                                   payment_method_id: str) -> Order:
        """Swap items of a pending order for other variants of the same products (once per order).

        Args:
            order_id: The order id, such as '#W1234567'.
            item_ids: The item ids to replace.
            new_item_ids: The new item ids, in the same order as item_ids.
            payment_method_id: Pays or receives the price difference.
        """
        order = self._order(order_id, "pending")
        pairs = self._new_variants(order, item_ids, new_item_ids)
        method = self._method(order, payment_method_id)
        difference = _money(sum(v.price - o.price for o, v in pairs))
        if difference > 0:
            self._charge(method, difference)
        elif method.source == "gift_card":
            method.balance = _money((method.balance or 0.0) - difference)
        for old, variant in pairs:
            old.item_id, old.options, old.price = variant.item_id, dict(variant.options), variant.price
        if difference:
            order.payment_history.append(Payment(transaction_type="payment" if difference > 0 else "refund",
                                                 amount=abs(difference), payment_method_id=payment_method_id))
        order.status = "pending (item modified)"
        return order

    @tool(ToolKind.WRITE)
    def return_delivered_order_items(self, order_id: str, item_ids: list[str], payment_method_id: str) -> Order:
        """Request the return of items of a delivered order; the refund goes to the given method.

        Args:
            order_id: The order id, such as '#W1234567'.
            item_ids: The item ids to return.
            payment_method_id: The original payment method or a gift card of the user.
        """
        order = self._order(order_id, "delivered")
        method = self._method(order, payment_method_id)
        original = {p.payment_method_id for p in order.payment_history if p.transaction_type == "payment"}
        if method.source != "gift_card" and payment_method_id not in original:
            raise ToolError("refunds go to the original payment method or a gift card")
        present = [i.item_id for i in order.items]
        if not item_ids or any(item_ids.count(i) > present.count(i) for i in item_ids):
            raise ToolError("item_ids must name items of the order")
        order.status, order.return_items, order.return_payment_method_id = "return requested", sorted(item_ids), payment_method_id
        return order

    @tool(ToolKind.WRITE)
    def exchange_delivered_order_items(self, order_id: str, item_ids: list[str], new_item_ids: list[str],
                                       payment_method_id: str) -> Order:
        """Request an exchange of delivered items for other variants of the same products.

        Args:
            order_id: The order id, such as '#W1234567'.
            item_ids: The item ids to exchange.
            new_item_ids: The new item ids, in the same order as item_ids.
            payment_method_id: Pays or receives the price difference.
        """
        order = self._order(order_id, "delivered")
        pairs = self._new_variants(order, item_ids, new_item_ids)
        method = self._method(order, payment_method_id)
        difference = _money(sum(v.price - o.price for o, v in pairs))
        if difference > 0:
            self._charge(method, difference)
        order.status = "exchange requested"
        order.exchange_items, order.exchange_new_items = list(item_ids), list(new_item_ids)
        order.exchange_payment_method_id = payment_method_id
        return order

    @tool(ToolKind.WRITE)
    def modify_user_address(self, user_id: str, address1: str, address2: str, city: str, state: str,
                            country: str, zip: str) -> User:
        """Change a user's default address (existing orders keep theirs).

        Args:
            user_id: The user id.
            address1: First address line.
            address2: Second address line (may be empty).
            city: City.
            state: State code, such as 'TX'.
            country: Country, such as 'USA'.
            zip: Zip code.
        """
        user = self._user(user_id)
        user.address = Address(address1=address1, address2=address2, city=city, state=state, country=country, zip=zip)
        return user
