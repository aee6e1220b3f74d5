/* start: a run on the simulated or the native machine. Theory of
 * operation: a host makes the run native (native_run, with its watchdog);
 * otherwise the platform is simulated (sim_run), with the run's own Paje
 * request (none when paje is NULL: a request never outlives its run).
 * Nothing else differs: both take the same hooks and seed.
 */
#include "start.h"

#include "simulated.h"

int start_machine(const start_t *s, err_t *e)
{
    if (s->host)
        return native_run(s->host, s->seed, s->hooks, &s->native, e);
    sim_request_paje(s->paje, s->paje_calls);
    return sim_run(s->platform, s->argv0, s->seed, s->hooks, e);
}
