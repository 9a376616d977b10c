"""The task graph (TME): nodes with history and dependencies, and the module that keeps it."""
