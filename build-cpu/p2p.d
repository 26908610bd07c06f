build-cpu/p2p.o: p2p.c p2p.h config.h device.h gpu_partition.h problem.h \
 stop_rule.h update_rule.h error.h
p2p.h:
config.h:
device.h:
gpu_partition.h:
problem.h:
stop_rule.h:
update_rule.h:
error.h:
