#pragma once
/* No cps definition here, but it includes one. */
#include "inner.h"
