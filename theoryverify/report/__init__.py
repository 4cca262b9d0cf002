"""``python -m theoryverify.report``: Markdown bounds-vs-empirics reports with plots."""
