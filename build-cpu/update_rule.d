build-cpu/update_rule.o: update_rule.c update_rule.h problem.h
update_rule.h:
problem.h:
