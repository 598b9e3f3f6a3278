"""Retail domain: orders, cancellations, address and payment changes, returns and exchanges."""

from __future__ import annotations

from typing import Literal

from tasks.tools.domains.retail_db import (
    Address,
    Order,
    OrderItem,
    Payment,
    PaymentMethod,
    Product,
    RetailDB,
    User,
    Variant,
    round_money,
)
from tasks.tools.framework.toolkit import ToolError, ToolKind, Toolkit, tool

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
            method.balance = round_money(balance - amount)

    def _new_variants(
        self, order: Order, item_ids: list[str], new_item_ids: list[str]
    ) -> list[tuple[OrderItem, Variant]]:
        if not item_ids or len(item_ids) != len(new_item_ids):
            raise ToolError("item_ids and new_item_ids must be non-empty and of the same length")
        if len(set(item_ids)) != len(item_ids):
            raise ToolError("item_ids repeats an item")
        pairs = []
        for old_id, new_id in zip(item_ids, new_item_ids, strict=True):
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
                first_name.strip().lower(),
                last_name.strip().lower(),
                zip.strip(),
            ):
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
                method.balance = round_money((method.balance or 0.0) + payment.amount)
            order.payment_history.append(
                Payment(transaction_type="refund", amount=payment.amount, payment_method_id=payment.payment_method_id)
            )
        order.status, order.cancel_reason = "cancelled", reason
        return order

    @tool(ToolKind.WRITE)
    def modify_pending_order_address(
        self, order_id: str, address1: str, address2: str, city: str, state: str, country: str, zip: str
    ) -> Order:
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
            old_method.balance = round_money((old_method.balance or 0.0) + old.amount)
        order.payment_history += [
            Payment(transaction_type="payment", amount=old.amount, payment_method_id=payment_method_id),
            Payment(transaction_type="refund", amount=old.amount, payment_method_id=old.payment_method_id),
        ]
        return order

    @tool(ToolKind.WRITE)
    def modify_pending_order_items(
        self, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str
    ) -> Order:
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
        difference = round_money(sum(v.price - o.price for o, v in pairs))
        if difference > 0:
            self._charge(method, difference)
        elif method.source == "gift_card":
            method.balance = round_money((method.balance or 0.0) - difference)
        for old, variant in pairs:
            old.item_id, old.options, old.price = variant.item_id, dict(variant.options), variant.price
        if difference:
            order.payment_history.append(
                Payment(
                    transaction_type="payment" if difference > 0 else "refund",
                    amount=abs(difference),
                    payment_method_id=payment_method_id,
                )
            )
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
        order.status, order.return_items, order.return_payment_method_id = (
            "return requested",
            sorted(item_ids),
            payment_method_id,
        )
        return order

    @tool(ToolKind.WRITE)
    def exchange_delivered_order_items(
        self, order_id: str, item_ids: list[str], new_item_ids: list[str], payment_method_id: str
    ) -> Order:
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
        difference = round_money(sum(v.price - o.price for o, v in pairs))
        if difference > 0:
            self._charge(method, difference)
        order.status = "exchange requested"
        order.exchange_items, order.exchange_new_items = list(item_ids), list(new_item_ids)
        order.exchange_payment_method_id = payment_method_id
        return order

    @tool(ToolKind.WRITE)
    def modify_user_address(
        self, user_id: str, address1: str, address2: str, city: str, state: str, country: str, zip: str
    ) -> User:
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
