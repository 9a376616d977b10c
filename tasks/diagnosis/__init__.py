"""The Diagnosis Simulator of the Self-Consistency Test: DDXPlus catalogue, player, candidates.

The agent plays a patient with a hidden condition; a seeded player asks yes/no questions about
DDXPlus evidences; at the fork the candidates are the conditions still consistent with the
answers. Everything here is deterministic code; only the agent under test is a model.
"""

from .candidates import (
    CandidateOrigin,
    CandidateSet,
    RejectedProposal,
    build_candidates,
    consistent_conditions,
)
from .catalogue import (
    DEFAULT_EXCLUDED_GROUPS,
    Catalogue,
    Condition,
    Evidence,
    EvidenceGroup,
    load_catalogue,
)
from .matching import (
    clean_condition_text,
    condition_forms,
    is_near_duplicate,
    match_condition,
    mentions_condition,
)
from .patients import (
    PATIENT_KINDS,
    PATIENTS,
    PatientKind,
    ScriptedPatient,
    hidden_condition,
)
from .player import AnswerParser, DiagnosisPlayer, EvidenceAnswer, QuestionScore
from .prompts import (
    CANDIDATE_GENERATION_TEMPLATE,
    OPENER,
    QUESTION_TEMPLATE,
    REVEAL_REQUEST,
    VERIFICATION_TEMPLATE,
    candidate_generation_prompt,
    parse_proposals,
    question_prompt,
    verification_prompt,
)

__all__ = [
    "CANDIDATE_GENERATION_TEMPLATE",
    "DEFAULT_EXCLUDED_GROUPS",
    "OPENER",
    "PATIENTS",
    "PATIENT_KINDS",
    "QUESTION_TEMPLATE",
    "REVEAL_REQUEST",
    "VERIFICATION_TEMPLATE",
    "AnswerParser",
    "CandidateOrigin",
    "CandidateSet",
    "Catalogue",
    "Condition",
    "DiagnosisPlayer",
    "Evidence",
    "EvidenceAnswer",
    "EvidenceGroup",
    "PatientKind",
    "QuestionScore",
    "RejectedProposal",
    "ScriptedPatient",
    "build_candidates",
    "candidate_generation_prompt",
    "clean_condition_text",
    "condition_forms",
    "consistent_conditions",
    "hidden_condition",
    "is_near_duplicate",
    "load_catalogue",
    "match_condition",
    "mentions_condition",
    "parse_proposals",
    "question_prompt",
    "verification_prompt",
]
