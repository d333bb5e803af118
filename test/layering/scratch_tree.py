"""What the layering checkers share: a scratch source tree for their self-tests, and their command line."""
import os
import sys


def writer(root):
    """A function that writes a file of the scratch tree under root, making its folders."""
    def write(path, text):
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w", encoding="utf-8") as file:
            file.write(text)
    return write


def main(check, self_test, usage):
    """checker ROOT | checker --self-test, exiting with the check's status."""
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) != 2:
        sys.exit(usage)
    sys.exit(check(sys.argv[1]))
