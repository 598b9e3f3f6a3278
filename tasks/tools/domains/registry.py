"""The built-in domains by name, each with its task file under ``data/``."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tasks.tools.framework.environment import Domain
from tasks.tools.taskformat import TauTask, check_against_domain, load_tasks

DATA_DIR = Path(__file__).resolve().parent / "data"
DOMAIN_NAMES = ("retail", "airline", "telecom")


def task_file(name: str) -> Path:
    """Where the domain's τ² task file lives."""
    return DATA_DIR / f"{name}_tasks.json"


def _loader(domain_name: str) -> object:
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
        )  # type: ignore[arg-type]
    if name == "airline":
        from tasks.tools.domains import airline, airline_db

        return Domain(
            "airline",
            airline.POLICY,
            airline_db.AirlineDB,
            airline_db.build_db,
            airline.AirlineTools,
            tasks_loader=_loader("airline"),
        )  # type: ignore[arg-type]
    if name == "telecom":
        from tasks.tools.domains import telecom

        return Domain(
            "telecom",
            telecom.POLICY,
            telecom.TelecomDB,
            telecom.build_db,
            telecom.TelecomTools,
            user_toolkit=telecom.DeviceTools,
            user_db_model=telecom.DeviceDB,
            user_db_data=telecom.build_device,
            tasks_loader=_loader("telecom"),
        )  # type: ignore[arg-type]
    raise KeyError(f"unknown tools domain {name!r}; built-in domains: {', '.join(DOMAIN_NAMES)}")
