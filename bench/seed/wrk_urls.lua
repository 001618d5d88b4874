-- wrk_urls.lua: wrk cycles through the GetMap paths listed one per line in the
-- file named by $URLS, sending the key from $KEY in the service-api-key header.
-- Each wrk thread starts at a different place in the list.
local paths = {}
for line in io.lines(os.getenv("URLS")) do
  if #line > 0 then paths[#paths + 1] = line end
end
local key = os.getenv("KEY")
local threads = 0
local i = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

function init(args)
  i = ((id or 1) - 1) * math.floor(#paths / 2)
end

function request()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], { ["service-api-key"] = key })
end
