"""The built-in domains by name, each with its task file under ``data/``."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from tasks.tools.framework.environment import Domain
from tasks.tools.taskformat import TauTask, check_against_domain, load_tasks

DATA_DIR = Path(__file__).resolve().parent / "data"
DOMAIN_NAMES = ("retail", "airline", "telecom")


def task_file(name: str) -> Path:
    """Where the domain's τ² task file lives."""
    return DATA_DIR / f"{name}_tasks.json"


def _loader(domain_name: str) -> Callable[[], list[TauTask]]:
    """The domain's task loader: its task file, each task checked against the domain."""

    def load() -> list[TauTask]:
        tasks = load_tasks(task_file(domain_name))
        domain = get_domain(domain_name)
        for task in tasks:
            check_against_domain(task, domain)
        return tasks

    return load


@cache
def get_domain(name: str) -> Domain:
    """The built-in domain called ``name``; KeyError naming the choices otherwise."""
    if name == "retail":
        from tasks.tools.domains import retail, retail_db

        return Domain(
            "retail",
            retail.POLICY,
            retail_db.RetailDB,
            retail_db.build_db,
            retail.RetailTools,
            tasks_loader=_loader("retail"),
        )
    if name == "airline":
        from tasks.tools.domains import airline, airline_db

        return Domain(
            "airline",
            airline.POLICY,
            airline_db.AirlineDB,
            airline_db.build_db,
            airline.AirlineTools,
            tasks_loader=_loader("airline"),
        )
    if name == "telecom":
        from tasks.tools.domains import telecom, telecom_db

        return Domain(
            "telecom",
            telecom.POLICY,
            telecom_db.TelecomDB,
            telecom_db.build_db,
            telecom.TelecomTools,
            user_toolkit=telecom.DeviceTools,
            user_db_model=telecom_db.DeviceDB,
            user_db_data=telecom_db.build_device,
            tasks_loader=_loader("telecom"),
        )
    raise KeyError(f"unknown tools domain {name!r}; built-in domains: {', '.join(DOMAIN_NAMES)}")
