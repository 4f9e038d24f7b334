"""The rating models by key: the default (Weng–Lin Plackett–Luce, :mod:`.weng_lin`) and
prefko's formula (:mod:`.prefko`), and a model rebuilt from what a stored rating says it was
computed with (:meth:`~.model.RatingModel.spec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .model import RatingError, RatingModel
from .prefko import Prefko
from .weng_lin import WengLin

__all__ = ["DEFAULT_MODEL", "MODELS", "model_for", "model_from_spec"]

#: every model by key
MODELS: dict[str, type[RatingModel]] = {WengLin.key: WengLin, Prefko.key: Prefko}
DEFAULT_MODEL = WengLin.key


def model_for(key: str = DEFAULT_MODEL, **params: Any) -> RatingModel:
    """The model ``key`` with ``params`` (its own defaults for the others).

    :raises RatingError: for an unknown key or parameter (naming it).
    """
    try:
        cls = MODELS[key]
    except KeyError:
        raise RatingError(
            f"rating model: unknown model {key!r} (known: {sorted(MODELS)})"
        ) from None
    try:
        return cls(**params)
    except TypeError as exc:
        raise RatingError(f"rating model {key!r}: {exc}") from None


def model_from_spec(spec: Mapping[str, Any]) -> RatingModel:
    """The model a stored :meth:`~.model.RatingModel.spec` describes.

    :raises RatingError: when that model's version is not this Pulka's (its numbers could
        differ: the rating is recomputed from scratch with the current version instead).
    """
    model = model_for(
        str(spec.get("model")),
        **{
            k: v
            for k, v in dict(spec.get("params") or {}).items()
            if k not in ("library", "source", "magic")
        },
    )
    if spec.get("version") != model.version:
        raise RatingError(
            f"rating model {model.key!r}: stored version {spec.get('version')} is not "
            f"the current {model.version}"
        )
    return model
