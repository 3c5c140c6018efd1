"""One module per task; :data:`TASKS` maps a task name to its class."""

from __future__ import annotations

from server.evaluation.tasks.base import Task

TASK_MODULES = {
    "retrieval": "server.evaluation.tasks.retrieval:RetrievalTask",
    "generation": "server.evaluation.tasks.generation:GenerationTask",
    "zeroshot": "server.evaluation.tasks.zeroshot:ZeroShotTask",
    "multichoice": "server.evaluation.tasks.multichoice:MultipleChoiceTask",
    "classifier": "server.evaluation.tasks.classifier:ClassifierTask",
}


def task_class(name: str) -> type[Task]:
    """Import a task lazily so listing tasks needs no torch."""
    import importlib

    if name not in TASK_MODULES:
        raise KeyError(f"unknown task {name!r}; choose one of {', '.join(TASK_MODULES)}")
    module, cls = TASK_MODULES[name].split(":")
    return getattr(importlib.import_module(module), cls)
