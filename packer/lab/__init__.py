"""For the lessons: what they explore and draw with (step-by-step traces, figures, widgets).

`trace` replays a packer's decisions and measures
each candidate, `plots` draws them, `widgets` wires sliders to plain view functions that tests call
without a browser. Imports point down only: the lab uses the core `packer`, never checking or grading.
"""
