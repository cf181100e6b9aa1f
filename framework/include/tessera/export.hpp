#pragma once
// Symbols the framework library exports to the executable and to plugins. Everything
// else is hidden (CXX_VISIBILITY_PRESET hidden), so one copy of each framework symbol exists.
#define TESSERA_API __attribute__((visibility("default")))
