#include "textflag.h"

TEXT ·nop(SB), NOSPLIT, $0-0
	RET
