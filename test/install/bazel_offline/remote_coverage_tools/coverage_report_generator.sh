#!/bin/sh
echo "remote_coverage_tools is an offline stand-in: bazel coverage is not available" >&2
exit 1
