# The task, plus what the template cannot compute: which forms its status allows.
{task: (.result + {can_start: (.result.status == "open"), can_complete: (.result.status == "in_progress")})}
