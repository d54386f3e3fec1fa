"""The translator's front door: `translate(text, path, ...)` and `parse`
(the pipeline itself is declared in pipeline.py)."""
from .pipeline import translate, parse, stage_names  # noqa: F401
