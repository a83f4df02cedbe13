"""A strategy guide a person can follow: an ordered list of rules, first match wins (issue 24 item 5)."""
