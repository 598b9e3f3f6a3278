"""The loaded τ² databases are shared, never mutated: copy-on-access tables, fresh environments, τ²'s tools."""

from __future__ import annotations

from tasks.tau2.domains import CopyOnAccessTable, load_domain
from tasks.tau2.library import resolve_data_root


def test_copy_on_access_table_never_mutates_the_shared_records() -> None:
    from tau2.domains.retail.data_model import User

    domain = load_domain("retail", resolve_data_root(None))
    master = domain.db.users
    key = next(iter(master))
    before = master[key].model_dump_json()
    table = CopyOnAccessTable(master)
    copied = table[key]
    assert isinstance(copied, User)
    copied.name.first_name = "Changed"
    assert table.get(key) is copied and master[key].model_dump_json() == before
    users = [user for _, user in table.items() if isinstance(user, User)]
    assert len(users) == len(master)
    for user in users:
        user.address.city = "Nowhere"
    assert all(isinstance(u, User) and u.address.city == "Nowhere" for u in table.values())
    assert all(u.address.city != "Nowhere" for u in master.values())
    popped = table.pop(key)
    assert isinstance(popped, User)
    popped.email = "x@y.z"
    assert key not in table and key in master and master[key].model_dump_json() == before
    assert table.pop("missing", None) is None and table.get("missing", 7) == 7
    assert len(table) == len(master) - 1


def test_tools_write_to_a_fresh_environment_only() -> None:
    domain = load_domain("airline", resolve_data_root(None))
    initial = domain.db.model_dump_json()
    env = domain.environment()
    reservation = next(iter(domain.db.reservations))
    env.get_response(_call("cancel_reservation", {"reservation_id": reservation}))
    assert env.tools.db.reservations[reservation].status == "cancelled"
    assert domain.db.model_dump_json() == initial
    fresh = domain.environment()
    assert fresh.get_db_hash() == domain.db.get_hash() != env.get_db_hash()


def _call(name: str, arguments: dict):
    from tau2.data_model.message import ToolCall

    return ToolCall(id="t", name=name, arguments=arguments)
