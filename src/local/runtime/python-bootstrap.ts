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

# botocore before 1.31.57 (boto3 before 1.28.57) reads no AWS_ENDPOINT_URL: a function that ships such a
# boto3 (pinned in its requirements, or an old runtime's) would reach AWS itself. Its clients are given
# the configured endpoint as newer botocore resolves it (AWS_ENDPOINT_URL_<SERVICE ID>, then
# AWS_ENDPOINT_URL, unless AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true) when they name none. The hook
# patches botocore.session as it is imported, so clients a handler creates at load time are covered.
def configured_endpoint(session, service_name):
    env = os.environ
    if env.get('AWS_IGNORE_CONFIGURED_ENDPOINT_URLS', '').lower() == 'true':
        return None
    try:
        service_id = session.get_service_model(service_name).service_id
    except Exception:
        service_id = service_name
    key = 'AWS_ENDPOINT_URL_' + str(service_id).upper().replace(' ', '_').replace('-', '_')
    return env.get(key) or env.get('AWS_ENDPOINT_URL') or None

def route_old_botocore(module):
    try:
        import botocore.configprovider as provider
    except ImportError:
        return
    if hasattr(provider, 'ConfiguredEndpointProvider'):
        return
    original = module.Session.create_client
    def create_client(self, service_name, *args, **kwargs):
        if len(args) < 5 and kwargs.get('endpoint_url') is None:
            endpoint = configured_endpoint(self, service_name)
            if endpoint:
                kwargs['endpoint_url'] = endpoint
        return original(self, service_name, *args, **kwargs)
    module.Session.create_client = create_client

class BotocoreSessionHook:
    def find_spec(self, name, path=None, target=None):
        if name != 'botocore.session':
            return None
        import importlib.util
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, 'exec_module'):
            return spec
        exec_module = spec.loader.exec_module
        def exec_and_route(module):
            exec_module(module)
            route_old_botocore(module)
        spec.loader.exec_module = exec_and_route
        return spec

sys.meta_path.insert(0, BotocoreSessionHook())

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
