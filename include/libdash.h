#pragma once
// DASH-style umbrella header, for code written against dash-project/dash.
#include <dash/dash.hpp>
