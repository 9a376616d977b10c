"""DDXPlus knowledge-base files shipped with the Diagnosis Simulator (see SOURCE.md)."""
