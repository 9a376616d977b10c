"""The trial viewer: a local web app over results directories, a static export, and a page
to play an SCT game against an agent. The server parts need the ``view`` extra."""
