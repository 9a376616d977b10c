"""LongMemEval: long-term memory of chat assistants (Wu et al., ICLR 2025), read and judged as
its official code reads and judges it."""
