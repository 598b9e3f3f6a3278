"""Telecom domain: mobile-data troubleshooting with dual control.

The agent sees the provider's records (customers, lines, plans, bills); the user operates
the phone (airplane mode, mobile data, roaming, SIM, network settings) through user-side
tools. Mobile data works only when both sides are right, which ``assert_mobile_data_working``
checks at the end.
"""

from __future__ import annotations

from typing import Any

from tasks.tools.domains.telecom_db import DEFAULT_APN, Bill, Customer, DeviceDB, Line, NetworkMode, Plan, TelecomDB
from tasks.tools.framework.toolkit import ToolError, ToolKind, Toolkit, tool

POLICY = """# Telecom technical support policy
- Identify the customer by phone number and look up their line before acting.
- You cannot touch the phone: ask the user to perform each step on their device and to report what they see.
- Mobile data needs: airplane mode off, mobile data on, a seated SIM, correct network settings
  (reset network settings if the APN or network mode is wrong), and, when abroad, roaming on in the phone
  and enabled on the line.
- A line suspended for an overdue bill is resumed only after the bill is paid with the customer's payment
  method on file (pay the bill, then resume the line).
- If the line has used all its data, offer a data refuel; refuel exactly the amount the customer asks for
  (at most 5 GB).
- Enable roaming on the line when the customer is abroad and asks for it.
"""


def _line_by_phone(db: TelecomDB, phone_number: str) -> Line:
    for line in db.lines.values():
        if line.phone_number == phone_number:
            return line
    raise ToolError(f"no line with phone number {phone_number}")


def _customer_of(db: TelecomDB, line_id: str) -> Customer:
    return next(c for c in db.customers.values() if line_id in c.line_ids)


class TelecomTools(Toolkit):
    """The support agent's tools (provider side)."""

    db: TelecomDB

    def _line(self, line_id: str) -> Line:
        if line_id not in self.db.lines:
            raise ToolError(f"line {line_id} not found")
        return self.db.lines[line_id]

    @tool(ToolKind.READ)
    def get_customer_by_phone(self, phone_number: str) -> Customer:
        """Find the customer who owns a phone number.

        Args:
            phone_number: The number, such as '555-123-4567'.
        """
        return _customer_of(self.db, _line_by_phone(self.db, phone_number).line_id)

    @tool(ToolKind.READ)
    def get_line_details(self, line_id: str) -> Line:
        """Get a line's status, plan, data usage and roaming setting.

        Args:
            line_id: The line id, such as 'L2001'.
        """
        return self._line(line_id)

    @tool(ToolKind.READ)
    def get_plan_details(self, plan_id: str) -> Plan:
        """Get a plan's data limit and prices.

        Args:
            plan_id: The plan id, such as 'P_PLUS'.
        """
        if plan_id not in self.db.plans:
            raise ToolError(f"plan {plan_id} not found")
        return self.db.plans[plan_id]

    @tool(ToolKind.READ)
    def get_bills(self, customer_id: str) -> dict[str, Bill]:
        """List a customer's bills with amounts and status.

        Args:
            customer_id: The customer id, such as 'C1001'.
        """
        if customer_id not in self.db.customers:
            raise ToolError(f"customer {customer_id} not found")
        return self.db.customers[customer_id].bills

    @tool(ToolKind.WRITE)
    def pay_bill(self, customer_id: str, bill_id: str) -> Bill:
        """Pay an overdue bill with the customer's payment method on file.

        Args:
            customer_id: The customer id.
            bill_id: The bill id.
        """
        customer = self.db.customers.get(customer_id)
        if customer is None or bill_id not in customer.bills:
            raise ToolError(f"bill {bill_id} of customer {customer_id} not found")
        bill = customer.bills[bill_id]
        if bill.status != "overdue":
            raise ToolError(f"bill {bill_id} is already {bill.status}")
        bill.status = "paid"
        return bill

    @tool(ToolKind.WRITE)
    def resume_line(self, line_id: str) -> Line:
        """Resume a suspended line (only when the customer has no overdue bill).

        Args:
            line_id: The line id.
        """
        line = self._line(line_id)
        if line.status != "suspended":
            raise ToolError(f"line {line_id} is not suspended")
        if any(b.status == "overdue" for b in _customer_of(self.db, line_id).bills.values()):
            raise ToolError("the customer has an overdue bill; it must be paid first")
        line.status = "active"
        return line

    @tool(ToolKind.WRITE)
    def suspend_line(self, line_id: str) -> Line:
        """Suspend a line at the customer's request.

        Args:
            line_id: The line id.
        """
        line = self._line(line_id)
        line.status = "suspended"
        return line

    @tool(ToolKind.WRITE)
    def refuel_data(self, line_id: str, gb: float) -> Line:
        """Add data to a line for the current month, charged at the plan's refuel price.

        Args:
            line_id: The line id.
            gb: Gigabytes to add, more than 0 and at most 5.
        """
        line = self._line(line_id)
        if not 0 < gb <= 5:
            raise ToolError("a refuel adds more than 0 and at most 5 GB")
        line.data_refueled_gb = round(line.data_refueled_gb + gb, 2)
        return line

    @tool(ToolKind.WRITE)
    def set_line_roaming(self, line_id: str, enabled: bool) -> Line:
        """Enable or disable roaming on a line.

        Args:
            line_id: The line id.
            enabled: True to enable roaming, False to disable it.
        """
        line = self._line(line_id)
        line.roaming_enabled = enabled
        return line

    @tool(ToolKind.WRITE)
    def change_plan(self, line_id: str, plan_id: str) -> Line:
        """Move a line to another plan.

        Args:
            line_id: The line id.
            plan_id: The new plan id.
        """
        line = self._line(line_id)
        if plan_id not in self.db.plans or plan_id == line.plan_id:
            raise ToolError(f"plan {plan_id} is unknown or already the line's plan")
        line.plan_id = plan_id
        return line


def data_problems(device: DeviceDB, provider: TelecomDB) -> list[str]:
    """Why mobile data does not work on ``device`` (empty when it works)."""
    problems = []
    if device.airplane_mode:
        problems.append("airplane mode is on")
    if not device.sim_seated:
        problems.append("no SIM card detected")
    if not device.mobile_data:
        problems.append("mobile data is off")
    if device.apn != DEFAULT_APN or device.network_mode in ("2g", "none"):
        problems.append("network settings are wrong")
    try:
        line = _line_by_phone(provider, device.phone_number)
    except ToolError:
        return [*problems, "the SIM's number has no line"]
    if line.status != "active":
        problems.append("the line is not active")
    plan = provider.plans[line.plan_id]
    if line.data_used_gb >= plan.data_limit_gb + line.data_refueled_gb:
        problems.append("the data allowance is used up")
    if device.abroad and not (device.roaming and line.roaming_enabled):
        problems.append("roaming is not on in both the phone and the line")
    return problems


class DeviceTools(Toolkit):
    """The user's phone (user side); ``self.peer`` is the provider's database."""

    db: DeviceDB

    @tool(ToolKind.READ)
    def check_status_bar(self) -> dict[str, Any]:
        """Look at the phone's status bar: airplane mode, signal, data and roaming icons."""
        d = self.db
        signal = "none" if d.airplane_mode or not d.sim_seated else d.network_mode
        return {
            "airplane_mode": d.airplane_mode,
            "signal": signal,
            "mobile_data": d.mobile_data,
            "roaming": d.roaming,
            "sim": "ok" if d.sim_seated else "no SIM",
        }

    @tool(ToolKind.READ)
    def run_speed_test(self) -> str:
        """Open a web page to test mobile data."""
        problems = data_problems(self.db, self.peer)
        return "mobile data works" if not problems else "no internet connection"

    @tool(ToolKind.READ)
    def check_network_settings(self) -> dict[str, str]:
        """Show the APN and preferred network mode."""
        return {"apn": self.db.apn, "network_mode": self.db.network_mode}

    @tool(ToolKind.WRITE)
    def toggle_airplane_mode(self, on: bool) -> str:
        """Turn airplane mode on or off.

        Args:
            on: True to turn airplane mode on, False to turn it off.
        """
        self.db.airplane_mode = on
        return f"airplane mode {'on' if on else 'off'}"

    @tool(ToolKind.WRITE)
    def toggle_mobile_data(self, on: bool) -> str:
        """Turn mobile data on or off.

        Args:
            on: True to turn mobile data on.
        """
        self.db.mobile_data = on
        return f"mobile data {'on' if on else 'off'}"

    @tool(ToolKind.WRITE)
    def toggle_roaming(self, on: bool) -> str:
        """Turn data roaming on or off in the phone's settings.

        Args:
            on: True to turn roaming on.
        """
        self.db.roaming = on
        return f"roaming {'on' if on else 'off'}"

    @tool(ToolKind.WRITE)
    def reseat_sim_card(self) -> str:
        """Take the SIM card out and put it back in."""
        self.db.sim_seated = True
        return "SIM card detected"

    @tool(ToolKind.WRITE)
    def reset_network_settings(self) -> str:
        """Reset the APN and network mode to the carrier's defaults."""
        self.db.apn, self.db.network_mode = DEFAULT_APN, "4g"
        return "network settings reset"

    @tool(ToolKind.SETUP)
    def set_device_state(
        self,
        phone_number: str,
        airplane_mode: bool = False,
        mobile_data: bool = True,
        roaming: bool = False,
        sim_seated: bool = True,
        apn: str = DEFAULT_APN,
        network_mode: NetworkMode = "4g",
        abroad: bool = False,
    ) -> str:
        """Task setup: put the phone in a given state.

        Args:
            phone_number: The SIM's phone number.
            airplane_mode: Airplane mode.
            mobile_data: Mobile data switch.
            roaming: Roaming switch.
            sim_seated: Whether the SIM is detected.
            apn: The APN.
            network_mode: Preferred network mode.
            abroad: Whether the user is abroad.
        """
        self.db.phone_number, self.db.airplane_mode, self.db.mobile_data = phone_number, airplane_mode, mobile_data
        self.db.roaming, self.db.sim_seated, self.db.apn = roaming, sim_seated, apn
        self.db.network_mode, self.db.abroad = network_mode, abroad
        return "ok"

    @tool(ToolKind.ASSERT)
    def assert_mobile_data_working(self) -> bool:
        """Evaluation: whether mobile data works end to end."""
        return not data_problems(self.db, self.peer)
