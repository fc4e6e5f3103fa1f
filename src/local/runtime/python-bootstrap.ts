/** The Python side of a function's process: same JSON-lines protocol as the Node bootstrap. */
export const PYTHON_BOOTSTRAP = String.raw`
import importlib, json, os, sys, time, traceback
try:
    import resource
except ImportError:
    resource = None

FLUSH_MARKER = '\x00fw-flush '

replies = os.fdopen(3, 'w', buffering=1)
def reply(message):
    replies.write(json.dumps(message, default=str) + '\n')
    replies.flush()

class Context:
    def __init__(self, message):
        env = os.environ
        self.function_name = env.get('AWS_LAMBDA_FUNCTION_NAME')
        self.function_version = env.get('AWS_LAMBDA_FUNCTION_VERSION')
        self.invoked_function_arn = message['invokedFunctionArn']
        self.memory_limit_in_mb = int(env.get('AWS_LAMBDA_FUNCTION_MEMORY_SIZE', '128'))
        self.aws_request_id = message['id']
        self.log_group_name = env.get('AWS_LAMBDA_LOG_GROUP_NAME')
        self.log_stream_name = env.get('AWS_LAMBDA_LOG_STREAM_NAME')
        self.client_context = message.get('clientContext')
        self._deadline = message['deadline']
    def get_remaining_time_in_millis(self):
        return max(0, int(self._deadline - time.time() * 1000))

def error_payload(error):
    return {'errorMessage': str(error), 'errorType': type(error).__name__,
            'stackTrace': traceback.format_tb(error.__traceback__)}

def load():
    spec = os.environ['_HANDLER']
    module_name, _, function_name = spec.rpartition('.')
    sys.path.insert(0, os.environ.get('LAMBDA_TASK_ROOT', os.getcwd()))
    module = importlib.import_module(module_name.replace('/', '.'))
    return getattr(module, function_name)

# A WebSocket API's callback URL is https://<requestContext.domainName>/<stage>, and locally domainName
# is <apiId>.execute-api.localhost:PORT on the local cloud's plain-HTTP port: botocore's HTTPS request to
# a *.localhost host at that port is sent over HTTP to the local cloud, its signed Host kept (see the
# Node.js bootstrap). Patched once botocore is loaded, before each invocation.
def route_local_https():
    module = sys.modules.get('botocore.httpsession')
    if module is None or getattr(module.URLLib3Session, '_fw_local', False):
        return
    from urllib.parse import urlsplit, urlunsplit
    local = urlsplit(os.environ.get('AWS_ENDPOINT_URL', ''))
    original = module.URLLib3Session.send
    def send(self, request):
        url = urlsplit(request.url)
        if local.port and url.scheme == 'https' and (url.hostname or '').endswith('.localhost') and url.port == local.port:
            request.headers['Host'] = url.netloc
            request.url = urlunsplit(('http', local.netloc, url.path, url.query, url.fragment))
        return original(self, request)
    module.URLLib3Session.send = send
    module.URLLib3Session._fw_local = True

handler, load_error = None, None
try:
    handler = load()
except Exception as error:
    load_error = error

reply({'type': 'ready'})
for line in sys.stdin:
    message = json.loads(line)
    route_local_https()
    try:
        if handler is None:
            raise load_error
        result = {'type': 'result', 'id': message['id'], 'ok': True, 'value': handler(message['event'], Context(message))}
    except Exception as error:
        result = {'type': 'result', 'id': message['id'], 'ok': False, 'error': error_payload(error)}
    for stream in (sys.stdout, sys.stderr):
        stream.write(FLUSH_MARKER + message['id'] + '\n')
        stream.flush()
    if resource is not None:
        result['maxRss'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    reply(result)
`;
