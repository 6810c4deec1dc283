// The task tracker module of docs/language.md §2.1–2.4, verbatim, under its module header.
export const taskTrackerSource = `module task_tracker

resource task {
  id: id
  title: text
  description: text?
  priority: enum(low, medium, high, critical) = "medium"
  assignee: text?
  status: enum(open, in_progress, blocked, done, cancelled) = "open"
  created_at: timestamp = now()
  completed_at: timestamp?

  index (status)
  index (created_at desc, id desc)
}

query list_tasks(status: text?, limit: int = 50, offset: int = 0) {
  SELECT * FROM task
  WHERE (@status IS NULL OR status = @status)
  ORDER BY created_at DESC, id DESC
  LIMIT @limit OFFSET @offset
}

query get_task(id: id) one {
  SELECT * FROM task WHERE id = @id
}

action create_task(title: text, description: text?, priority: text = "medium", assignee: text?) {
  if trim(title) == "" { fail "title is required" }
  return insert task { title: title, description: description, priority: priority, assignee: assignee }
}

action start_task(id: id, assignee: text) {
  let task = get_task(id: id)
  if task == null { fail 404 "task not found" }
  if task.status != "open" { fail "only an open task can be started" }
  if trim(assignee) == "" { fail "assignee is required" }
  return update task(id) { status: "in_progress", assignee: assignee }
}

action delete_task(id: id) {
  let task = delete task(id)
  if task == null { fail 404 "task not found" }
  return task
}

action purge_done_tasks() requires role "admin" {
  sql { DELETE FROM task WHERE status = 'done' }
}

route POST "/v1/tasks/:id/start" => start_task
route GET "/v1/tasks/open" => list_open_tasks
route GET "/v1/tasks/:id" => get_task

webhook github_push {
  provider: "github"
  secret: credentials.github_webhook
  path: "/webhooks/github"
  handler: record_push
}
`;
