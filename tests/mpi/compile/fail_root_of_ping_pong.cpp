// Misuse: only collectives have a root; asking a point-to-point pattern for one must not compile.
#include <parbench/pattern/collective.hpp>
#include <parbench/pattern/ping_pong.hpp>

int misuse() { return parbench::pattern::root_of(parbench::pattern::ping_pong{}, 3, 2); }
