"""The real τ² domains (airline, retail, telecom, mock), built from τ²'s own classes over a data root.

A ``DomainData`` reads a domain's database, policy, tasks and splits once per process and
makes fresh ``tau2`` environments from copies of the loaded database, so that an episode
or an evaluation never re-reads (or re-validates) the 7 MB airline database. Tools, their
OpenAI schemas and the database hashing are τ²'s own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from harness.api import ConfigError
from tasks.tau2.jsonfile import read_json_file
from tasks.tau2.library import import_tau2

if TYPE_CHECKING:
    from tau2.data_model.tasks import Task as Tau2Task
    from tau2.environment.db import DB
    from tau2.environment.environment import Environment

DOMAINS = ("airline", "retail", "telecom", "mock")
COPY_ON_ACCESS_DOMAINS = frozenset({"airline", "retail"})
DEFAULT_SPLIT = {"airline": "base", "retail": "base", "telecom": "base", "mock": "base"}


class CopyOnAccessTable(dict[object, object]):
    """A database table that shares the loaded database's records until one is read; the read gets a deep copy,
    kept in the table. Unread records are never mutated, so sharing them is safe, and serialising the table
    (which reads the storage directly) sees exactly the state a deep copy would have.

    Covers every way τ²'s airline and retail tools reach a table: ``in``, ``[key]``, ``get``,
    ``values()``, ``items()``, assignment and ``pop``.
    """

    def __init__(self, records: dict[object, object]) -> None:
        super().__init__(records)
        self._copied: set[object] = set()

    def __getitem__(self, key: object) -> object:
        value = dict.__getitem__(self, key)
        if key not in self._copied and isinstance(value, BaseModel):
            value = value.model_copy(deep=True)
            dict.__setitem__(self, key, value)
            self._copied.add(key)
        return value

    def __setitem__(self, key: object, value: object) -> None:
        dict.__setitem__(self, key, value)
        self._copied.add(key)

    def get(self, key: object, default: object = None) -> object:
        """The (copied) record, or ``default``."""
        return self[key] if key in self else default  # noqa: SIM401 -- this is get itself; self.get would recurse

    def values(self) -> list[object]:  # type: ignore[override]
        """Every record, copied."""
        return [self[key] for key in list(dict.keys(self))]

    def items(self) -> list[tuple[object, object]]:  # type: ignore[override]
        """Every (key, record) pair, records copied."""
        return [(key, self[key]) for key in list(dict.keys(self))]

    def pop(self, key: object, *default: object) -> object:
        """Remove and return the (copied) record."""
        if key not in self:
            if default:
                return default[0]
            raise KeyError(key)
        value = self[key]
        dict.pop(self, key)
        return value


@dataclass(frozen=True)
class DomainClasses:
    """Where a domain's database and tool classes live in ``tau2``, and its data file names."""

    module: str
    db_class: str
    tools_class: str
    db_file: str
    user_module: str | None = None
    user_db_class: str | None = None
    user_tools_class: str | None = None
    user_db_file: str | None = None


CLASSES = {
    "airline": DomainClasses("tau2.domains.airline", "data_model.FlightDB", "tools.AirlineTools", "db.json"),
    "retail": DomainClasses("tau2.domains.retail", "data_model.RetailDB", "tools.RetailTools", "db.json"),
    "mock": DomainClasses("tau2.domains.mock", "data_model.MockDB", "tools.MockTools", "db.json"),
    "telecom": DomainClasses(
        "tau2.domains.telecom",
        "data_model.TelecomDB",
        "tools.TelecomTools",
        "db.toml",
        "tau2.domains.telecom",
        "user_data_model.TelecomUserDB",
        "user_tools.TelecomUserTools",
        "user_db.toml",
    ),
}


def _attribute(module: str, dotted: str) -> type[DB]:
    """``module.<dotted>`` imported (a τ² database or toolkit class)."""
    import importlib

    submodule, name = dotted.rsplit(".", 1)
    return getattr(importlib.import_module(f"{module}.{submodule}"), name)


def _policy(folder: Path, name: str) -> str:
    """The agent policy as τ² composes it (telecom: main policy plus the tech-support manual)."""
    if name != "telecom":
        return (folder / "policy.md").read_text(encoding="utf-8")
    main = (folder / "main_policy.md").read_text(encoding="utf-8")
    manual = (folder / "tech_support_manual.md").read_text(encoding="utf-8")
    return f"<main_policy>\n{main}\n</main_policy>\n<tech_support_policy>\n{manual}\n</tech_support_policy>"


class DomainData:
    """One τ² domain's database, policy and tasks, loaded once; fresh environments on demand."""

    def __init__(self, name: str, root: Path) -> None:
        if name not in CLASSES:
            raise ConfigError(f"unknown τ² domain {name!r}; choose one of {', '.join(DOMAINS)}")
        import_tau2()
        self.name, self.root = name, root
        self.folder = root / "domains" / name
        classes = CLASSES[name]
        self.db_class = _attribute(classes.module, classes.db_class)
        self.tools_class = _attribute(classes.module, classes.tools_class)
        self.db = self._load_db(self.db_class, self.folder / classes.db_file)
        self.user_db_class: type[DB] | None = None
        self.user_tools_class: type | None = None
        self.user_db: DB | None = None
        if classes.user_module and classes.user_db_class and classes.user_tools_class and classes.user_db_file:
            self.user_db_class = _attribute(classes.user_module, classes.user_db_class)
            self.user_tools_class = _attribute(classes.user_module, classes.user_tools_class)
            self.user_db = self._load_db(self.user_db_class, self.folder / classes.user_db_file)
        self.policy = _policy(self.folder, name)
        self._db_dump = self.db.model_dump()
        self._user_db_dump = self.user_db.model_dump() if self.user_db is not None else None

    @staticmethod
    def _load_db(db_class: type[DB], path: Path) -> DB:
        """A database file validated by τ²'s class."""
        from pydantic import ValidationError

        try:
            return db_class.load(str(path))
        except FileNotFoundError:
            raise ConfigError(f"τ² database {path} is missing") from None
        except (ValidationError, ValueError) as exc:
            raise ConfigError(f"τ² database {path} is not valid: {str(exc)[:300]}") from None

    def fresh_db(self) -> DB:
        """A new agent database in the loaded state: copy-on-access tables for airline and retail (their
        top-level fields are all tables of records), else validated anew from the loaded one's dump."""
        if self.name in COPY_ON_ACCESS_DOMAINS:
            tables = {name: CopyOnAccessTable(getattr(self.db, name)) for name in self.db_class.model_fields}
            return self.db_class.model_construct(**tables)
        return self.db_class.model_validate(self._db_dump)

    def environment(self) -> Environment:
        """A new τ² environment over copies of the loaded databases, as τ²'s ``get_environment`` builds it."""
        from tau2.environment.environment import Environment

        tools = self.tools_class(self.fresh_db())
        if self.user_db_class is None or self.user_tools_class is None:
            return Environment(domain_name=self.name, policy=self.policy, tools=tools)
        from tau2.domains.telecom.environment import TelecomEnvironment

        user_tools = self.user_tools_class(self.user_db_class.model_validate(self._user_db_dump))
        return TelecomEnvironment(domain_name=self.name, policy=self.policy, tools=tools, user_tools=user_tools)

    def constructor(self) -> Callable[..., Environment]:
        """An environment constructor with τ²'s ``(solo_mode=...)`` signature (solo mode is not supported)."""

        def construct(solo_mode: bool = False) -> Environment:
            if solo_mode:
                raise ConfigError("τ² solo mode is not supported")
            return self.environment()

        return construct

    def splits(self) -> dict[str, list[str]]:
        """The domain's task splits (``split_tasks.json``); mock has only ``base``."""
        path = self.folder / "split_tasks.json"
        if not path.exists():
            return {}
        data = read_json_file(path, ConfigError)
        if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
            raise ConfigError(f"{path}: expected an object of split name -> list of task ids")
        return {str(k): [str(i) for i in v] for k, v in data.items()}

    def tasks(self, split: str | None) -> list[Tau2Task]:
        """The tasks of ``split`` (all tasks when None), validated by τ²'s Task model and against the databases."""
        path = self.folder / "tasks.json"
        raw = read_json_file(path, ConfigError)
        if isinstance(raw, dict) and "tasks" in raw:
            raw = raw["tasks"]
        if not isinstance(raw, list):
            raise ConfigError(f"{path}: expected a JSON list of tasks")
        wanted: set[str] | None = None
        if split is not None:
            splits = self.splits()
            if split not in splits:
                raise ConfigError(f"τ² {self.name}: no split {split!r}; splits: {', '.join(sorted(splits)) or 'none'}")
            wanted = set(splits[split])
        chosen = [
            (index, item)
            for index, item in enumerate(raw)
            if wanted is None or (isinstance(item, dict) and str(item.get("id")) in wanted)
        ]
        tasks = validate_tasks(chosen, path)
        for task in tasks:
            self.check_initial_data(task)
        return tasks

    def check_initial_data(self, task: Tau2Task) -> None:
        """Reject initialisation data that names a table the domain's databases do not have."""
        data = task.initial_state.initialization_data if task.initial_state is not None else None
        if data is None:
            return
        for side, update, db_class in (
            ("agent_data", data.agent_data, self.db_class),
            ("user_data", data.user_data, self.user_db_class),
        ):
            if update is None:
                continue
            if db_class is None:
                raise ConfigError(
                    f"τ² {self.name} task {task.id!r}: initialization_data.{side} given, "
                    "but the domain has no user database"
                )
            unknown = sorted(set(update) - set(db_class.model_fields))
            if unknown:
                raise ConfigError(
                    f"τ² {self.name} task {task.id!r}: initialization_data.{side} names unknown "
                    f"table(s) {', '.join(map(repr, unknown))}; the database has "
                    f"{', '.join(db_class.model_fields)}"
                )

    def user_guidelines(self, with_tools: bool) -> str:
        """τ²'s user-simulator guidelines from the data root (the tools version when the user has tools)."""
        name = "simulation_guidelines_tools.md" if with_tools else "simulation_guidelines.md"
        path = self.root / "user_simulator" / name
        try:
            return path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"τ² user-simulator guidelines {path}: {exc.strerror}") from None


def validate_tasks(items: list[tuple[int, object]], path: Path) -> list[Tau2Task]:
    """``(index, raw task)`` pairs of the task file ``path`` validated by τ²'s Task model; ConfigError naming the
    first task and field at fault."""
    from pydantic import ValidationError
    from tau2.data_model.tasks import Task as Tau2TaskModel

    tasks = []
    for index, item in items:
        try:
            tasks.append(Tau2TaskModel.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ConfigError(f"{path}: task #{index}: {where}: {first['msg']}") from None
    return tasks


@lru_cache(maxsize=8)
def load_domain(name: str, root: Path) -> DomainData:
    """The domain's data, loaded once per process and data root."""
    return DomainData(name, root)
