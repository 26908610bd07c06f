build-cpu/run.o: run.c run.h config.h device.h gpu_partition.h problem.h \
 stop_rule.h update_rule.h output.h report.h solver.h error.h \
 laplace_kernels.h p2p.h reference.h watchers.h history.h progress.h
run.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
output.h:
report.h:
solver.h:
error.h:
laplace_kernels.h:
p2p.h:
reference.h:
watchers.h:
history.h:
progress.h:
