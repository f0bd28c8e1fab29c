"""Helpers the tests share: engines, browsers, damaged records, slips."""
