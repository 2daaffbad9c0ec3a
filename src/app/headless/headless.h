#pragma once
// Moved to app/run.h, below both the demo and the headless commands; kept while bench.cpp names it.

#include "app/run.h"
