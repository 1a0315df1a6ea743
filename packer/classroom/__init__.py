"""For an instructor serving the workbook to a class on a JupyterHub (`make hub`, jupyter-config/hub/).

`course` hands each learner a copy of the course in a folder of their own and never replaces a file they
already have. Imports: nothing else of packer (the hub's configuration loads it before any lesson runs).
"""
