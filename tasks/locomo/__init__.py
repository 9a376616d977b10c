"""LoCoMo: long-term conversational memory (Maharana et al., ACL 2024), scored as its
official evaluation code scores it."""
