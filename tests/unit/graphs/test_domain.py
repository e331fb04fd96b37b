"""graphs.domain is a package of one module per concern that re-exports every public name."""

from __future__ import annotations

import importlib
import pkgutil

import pydantic

import graphs.domain


def test_every_public_name_of_every_domain_module_is_importable_from_the_package() -> None:
    modules = [m.name for m in pkgutil.iter_modules(graphs.domain.__path__)]
    assert {"model", "query", "retrieval", "plan", "answer", "documents", "entities"} <= set(modules)
    for name in modules:
        module = importlib.import_module(f"graphs.domain.{name}")
        for attr, value in vars(module).items():
            if attr.startswith("_") or getattr(value, "__module__", module.__name__) != module.__name__:
                continue
            assert getattr(graphs.domain, attr) is value, f"graphs.domain.{attr} is not graphs.domain.{name}.{attr}"


def test_every_domain_model_is_fully_defined_after_the_split() -> None:
    for value in vars(graphs.domain).values():
        if isinstance(value, type) and issubclass(value, pydantic.BaseModel) and value is not pydantic.BaseModel:
            assert value.__pydantic_complete__, value.__name__
