#pragma once
static cps void helper(void) { cpc_yield(); }
