"""Table Companion: the phones hold the secrets, the sums and the dice; the cardboard stays on the table.

The web app is put together in companion.web.app (create_app); the rest of the package loads no Flask.
"""
