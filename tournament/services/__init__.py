"""Verb-named operations of a tournament day, one module per job, each function one transaction.

Views and management commands call these; they read the database, call the pure engines
(``tournament.engine``) and write the rows. A step the organiser cannot take raises
``common.errors.UserError`` with a message that names the division, the group or the game,
before anything is written (an automatic backup included).
"""
