"""The five tools that edit the private working memory (the paper's Appendix G).

Each tool is a pure function of the current memory text. It returns a :class:`ToolResult`
holding the new text and a :class:`ToolMeta` report. A call the tool cannot carry out raises
:class:`MemoryToolError`, with a message written for the model that made the call; the caller
keeps the old text, so a failed edit never changes the memory.

Except for ``overwrite_memory``, which replaces everything, the tools edit section bodies only:
no tool can add, remove, edit or reorder a section header line.

This module is the public API; the code lives in one module per concept:

* :mod:`memory.working.edit_meta`: ``MemoryToolError``, ``ToolMeta``, ``ToolResult``, changed lines;
* :mod:`memory.working.edit_args`: argument checks and the matching options (``EditOptions``);
* :mod:`memory.working.overwrite`: ``overwrite_memory``;
* :mod:`memory.working.line_edits`: ``append_in_memory`` and ``delete_from_memory``;
* :mod:`memory.working.patch_format`: the patch format and its parser;
* :mod:`memory.working.patch`: ``patch_memory``;
* :mod:`memory.working.replace`: ``replace_in_memory``.
"""

from __future__ import annotations

from .edit_args import PATCH_DEFAULTS, REPLACE_DEFAULTS, EditOptions, read_options
from .edit_meta import MemoryToolError, ToolMeta, ToolResult
from .line_edits import SUBSTRING_MIN_CHARS, append_in_memory, delete_from_memory
from .overwrite import overwrite_memory
from .patch import patch_memory
from .patch_format import PATCH_EXAMPLE, Hunk, PatchOp, parse_patch
from .replace import replace_in_memory

__all__ = [
    "PATCH_DEFAULTS",
    "PATCH_EXAMPLE",
    "REPLACE_DEFAULTS",
    "SUBSTRING_MIN_CHARS",
    "EditOptions",
    "Hunk",
    "MemoryToolError",
    "PatchOp",
    "ToolMeta",
    "ToolResult",
    "append_in_memory",
    "delete_from_memory",
    "overwrite_memory",
    "parse_patch",
    "patch_memory",
    "read_options",
    "replace_in_memory",
]
