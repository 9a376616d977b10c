"""The compressed cognitive state (ACC): the CCS schema, the qualification gate and the module."""
