"""The emitter: a normalised, boxed CPC unit in, C out (docs/abi.md)."""
from .cpsconv import emit  # noqa: F401
