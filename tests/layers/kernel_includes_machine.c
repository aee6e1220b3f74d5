/* Must compile (the control): a layer sees the layers below it. */
#include "cpu.h"
#include "timer/timer.h"

int layer_control(void);
int layer_control(void)
{
    return (int)sizeof(cpu_anatomy_t);
}
