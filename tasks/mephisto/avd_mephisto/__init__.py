"""A Mephisto task for the avd server: Mephisto recruits and pays, avd pairs and runs the dialog.

Runs in its own Python 3.10 environment (tasks/mephisto/install.sh); it talks to the avd
server only over HTTP (see client.py), never by importing it.
"""
