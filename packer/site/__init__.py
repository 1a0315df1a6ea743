"""For readers who have not installed anything: the lessons as a static web site (`make site`).

See packer/site/build.py for how the pages are made and why with nbconvert. Imports: packer.checking.practice only (packer/site/practice.py: the practice points a lesson's page checks).
"""
