"""The documentation site's reference pages, generated from the code when the site is built
(``docs/hooks.py`` hands them to MkDocs): nothing under ``docs/reference`` is written by hand."""
