# Runs the GoogleTest binaries under build/unittests as lit tests.
import os

import lit.formats

config.name = "pcc-unit"
config.suffixes = []
config.test_source_root = os.path.join(config.pcc_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "-tests")
