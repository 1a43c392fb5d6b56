"""Curation: people verify, edit, flag, reject, link, merge and undo; every change is a recorded event."""
